/**
 * "Durable writes alone" for the delivery benchmark (issue #30): what the SQL of a delivery burst costs by
 * itself, with no HTTP and none of the engine's JavaScript. While the engine delivers a burst, every
 * statement it runs on its SQLite handle is recorded (text and bound values, `begin` and `commit`
 * included), after a snapshot of the database taken just before; the recording is then replayed on a copy
 * of that snapshot, opened as the server opens its database (same pragmas, WAL checkpointed by the same
 * background thread), with each statement prepared beforehand (the server keeps them prepared). The replay
 * is the same statements, with the same batch sizes, in the same transactions, on the same data: its CPU is
 * the floor of any engine that writes those rows.
 */
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@xsvc/server';

/** What this module uses of a better-sqlite3 handle and its statements. */
interface Statement {
  readonly source: string;
  readonly database: unknown;
}
export interface Handle {
  prepare(source: string): Statement;
  serialize(): Buffer;
  exec(source: string): unknown;
}

interface Call {
  readonly source: string;
  readonly method: 'run' | 'all' | 'get';
  readonly args: readonly unknown[];
}

/** A recording of the statements run on one handle, from a snapshot of its database. */
export interface Recording {
  /** Stops recording; the statements run so far stay. */
  stop(): void;
  /**
   * Replays the statements on a copy of the snapshot; CPU of this process, in ms. Options, for what-ifs:
   * `prepare` changes the copy first (unmeasured), `keep` leaves statements out.
   */
  replay(options?: ReplayOptions): Promise<ReplayFigures>;
  /** Stops recording and removes the snapshot. */
  discard(): void;
}

/** What-ifs of a replay. */
export interface ReplayOptions {
  readonly prepare?: (handle: Handle) => void;
  readonly keep?: (source: string) => boolean;
  /** Keep the snapshot for another replay. */
  readonly again?: boolean;
}

/** What a replay cost. */
export interface ReplayFigures {
  /** Every statement recorded, this process's CPU (the WAL checkpoint thread's included), ms. */
  readonly totalMs: number;
  /** Of that, the transactions that stored the events (the producer's, not the engine's), ms. */
  readonly storeMs: number;
  /** Transactions replayed: storing events, and the rest (fan-out, claims, results). */
  readonly storeTransactions: number;
  readonly engineTransactions: number;
  readonly statements: number;
}

type Method = (this: Statement, ...args: unknown[]) => unknown;

/**
 * Snapshots `sqlite`'s database (synchronously, so no statement runs in between) and records every
 * statement run on that handle from now on, until {@link Recording.stop}.
 */
export function recordStatements(sqlite: Handle): Recording {
  const snapshot = join(tmpdir(), `xsvc-durable-${process.pid}-${Date.now()}.db`);
  writeFileSync(snapshot, sqlite.serialize());
  const proto = Object.getPrototypeOf(sqlite.prepare('select 1')) as Record<string, Method>;
  const calls: Call[] = [];
  const originals = new Map<string, Method>();
  for (const method of ['run', 'all', 'get'] as const) {
    const original = proto[method] as Method;
    originals.set(method, original);
    proto[method] = function (this: Statement, ...args: unknown[]) {
      if (this.database === sqlite) calls.push({ source: this.source, method, args });
      return original.apply(this, args);
    };
  }
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    for (const [method, original] of originals) proto[method] = original;
  };
  const remove = () => {
    for (const f of [snapshot, `${snapshot}-wal`, `${snapshot}-shm`]) rmSync(f, { force: true });
  };
  return {
    stop,
    discard() {
      stop();
      calls.length = 0;
      remove();
    },
    async replay(options = {}) {
      stop();
      const file = `${snapshot}-${Math.random().toString(36).slice(2)}`;
      copyFileSync(snapshot, file);
      const copy = await openDatabase(file);
      const keep = options.keep ?? (() => true);
      try {
        const handle = copy.sqlite as unknown as Handle;
        options.prepare?.(handle);
        const prepared = new Map<string, Statement>();
        for (const c of calls)
          if (!prepared.has(c.source) && keep(c.source)) prepared.set(c.source, handle.prepare(c.source));
        // The transactions, each a run of calls from `begin` to `commit` (a statement outside one is its own).
        const transactions: Call[][] = [];
        let open: Call[] | undefined;
        for (const c of calls) {
          if (/^\s*begin\b/i.test(c.source)) open = [];
          if (open) open.push(c);
          else transactions.push([c]);
          if (open && /^\s*(commit|rollback)\b/i.test(c.source)) {
            transactions.push(open);
            open = undefined;
          }
        }
        if (open) transactions.push(open);
        const isStore = (t: Call[]) => t.some((c) => /^\s*insert into "?events"?\s*\(/i.test(c.source));
        let storeUs = 0;
        let storeTransactions = 0;
        const started = process.cpuUsage();
        for (const t of transactions) {
          const store = isStore(t);
          const before = store ? process.cpuUsage() : undefined;
          for (const c of t) {
            if (!keep(c.source)) continue;
            const stmt = prepared.get(c.source) as Statement & Record<Call['method'], Method>;
            stmt[c.method].apply(stmt, c.args as unknown[]);
          }
          if (before) {
            const d = process.cpuUsage(before);
            storeUs += d.user + d.system;
            storeTransactions++;
          }
        }
        const total = process.cpuUsage(started);
        return {
          totalMs: (total.user + total.system) / 1000,
          storeMs: storeUs / 1000,
          storeTransactions,
          engineTransactions: transactions.length - storeTransactions,
          statements: calls.length,
        };
      } finally {
        await copy.close();
        for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
        if (!options.again) remove();
      }
    },
  };
}
