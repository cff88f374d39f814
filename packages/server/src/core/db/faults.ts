/**
 * The one place that tells a database that is away (or cannot take writes) from a bug. Such a fault is
 * the environment's, not the request's: the HTTP layer answers it 503 `service_unavailable` with
 * `Retry-After`, and the background loops pause and try again, instead of failing the request with 500 or
 * the process with an unhandled error.
 */

/** What went wrong with the database, in a form fit for a log line and a decision. */
export interface DatabaseFault {
  /** `connection`: Postgres is unreachable or dropped us; `storage`: SQLite cannot write (disk full, I/O, read-only, locked). */
  readonly kind: 'connection' | 'storage';
  /** The driver's code (`ECONNREFUSED`, `57P01`, `SQLITE_FULL`, …), or the message's gist when it has none. */
  readonly code: string;
  /** The driver's message. */
  readonly message: string;
}

/** Seconds a client is asked to wait (`Retry-After`) when the database is away: a restart takes a few. */
export const DATABASE_RETRY_AFTER_S = 2;

// Node's socket errors of a connection that could not be made or was cut.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// SQLSTATEs of a server going away or not yet there: class 08 (connection exception), 57P01 admin
// shutdown (pg_terminate_backend, a fast shutdown), 57P02 crash shutdown, 57P03 cannot connect now (starting,
// shutting down, in recovery), 57P05 idle session timeout, 53300 too many connections, 25006 read-only
// transaction (a standby after a failover), 40001/40P01 are not here: those are retried by the caller.
const PG_STATES = new Set(['57P01', '57P02', '57P03', '57P05', '53300', '25006']);

// The pg driver's own messages for a connection that ended or never came (no code on those errors).
const PG_MESSAGES: readonly [RegExp, string][] = [
  [/connection terminated/i, 'connection_terminated'],
  [/not queryable/i, 'connection_not_queryable'],
  [/timeout exceeded when trying to connect/i, 'connect_timeout'],
  [/connection timeout/i, 'connect_timeout'],
  [/server closed the connection unexpectedly/i, 'connection_terminated'],
  [/the database system is (starting up|shutting down|in recovery mode)/i, '57P03'],
];

// better-sqlite3's codes (extended codes start with the primary one: SQLITE_IOERR_WRITE, SQLITE_BUSY_SNAPSHOT…)
// of a database file that cannot take the statement now.
const SQLITE_PREFIXES = [
  'SQLITE_FULL',
  'SQLITE_IOERR',
  'SQLITE_READONLY',
  'SQLITE_BUSY',
  'SQLITE_CANTOPEN',
  'SQLITE_ABORT_ROLLBACK',
];

/**
 * The fault `error` stands for when it says the database is unavailable (or its storage cannot take
 * writes), else undefined: a constraint violation, a syntax error or any other bug is not a fault of
 * the environment. Looks through `cause` and an `AggregateError`'s errors (a host with several addresses).
 */
export function databaseFault(error: unknown): DatabaseFault | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    const found = ownFault(e);
    if (found) return found;
    if (e instanceof AggregateError) {
      for (const inner of e.errors) {
        const f = ownFault(inner);
        if (f) return f;
      }
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function ownFault(e: unknown): DatabaseFault | undefined {
  if (typeof e !== 'object' || e === null) return undefined;
  const { code, message } = e as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : '';
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || PG_STATES.has(code) || code.startsWith('08'))
      return { kind: 'connection', code, message: text || code };
    if (SQLITE_PREFIXES.some((p) => code.startsWith(p))) return { kind: 'storage', code, message: text };
  }
  for (const [pattern, gist] of PG_MESSAGES)
    if (pattern.test(text)) return { kind: 'connection', code: gist, message: text };
  return undefined;
}

/** One line for a log: the code and the driver's message. */
export function describeFault(fault: DatabaseFault): string {
  return fault.message && fault.message !== fault.code ? `${fault.code}: ${fault.message}` : fault.code;
}
