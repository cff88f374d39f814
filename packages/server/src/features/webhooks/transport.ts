import http from 'node:http';
import https from 'node:https';
import { pinnedConnection } from '../../core/ssrf/pinned-lookup.js';
import type { Target } from '../../core/ssrf/target.js';

/** What one POST to an endpoint came to. */
export interface SendOutcome {
  /** True for a 2xx answer. */
  readonly ok: boolean;
  /** The answer's HTTP status; null when none came (timeout, refused connection, TLS error). */
  readonly statusCode: number | null;
  /** Why it failed, for `lastError` and the test answer. */
  readonly error?: string;
}

/** Limits of one POST. */
export interface SendLimits {
  /** The whole attempt, connection included (spec 6.4: 10 s). */
  readonly timeoutMs: number;
  /** At most this many bytes of the answer are read; the rest is cut off. */
  readonly maxResponseBytes: number;
}

/** Keep-alive connection pools, one per scheme; close them with {@link closeAgents}. */
export interface Agents {
  readonly http: http.Agent;
  readonly https: https.Agent;
}

/** Pools for the deliveries of one engine (connections are reused between deliveries to an endpoint). */
export function createAgents(maxSockets = 64): Agents {
  const options = { keepAlive: true, maxSockets, maxFreeSockets: maxSockets, scheduling: 'lifo' as const };
  return { http: new http.Agent(options), https: new https.Agent(options) };
}

/** Closes every pooled connection. */
export function closeAgents(agents: Agents): void {
  agents.http.destroy();
  agents.https.destroy();
}

/**
 * Where a POST may be cut off other than by a stop signal (a sender thread, asked by the server's): called
 * with how to cut it off once it is under way, it returns what to call once it ended.
 */
export type CutOffRegistry = (cut: () => void) => () => void;

/**
 * POSTs a body to a vetted target. Redirects are not followed (a 3xx is a failure); the answer is read up to
 * `maxResponseBytes`; the timeout covers connecting and the answer's status line. `signal`, and `register`
 * when given, cut it off (a failed attempt: the server is stopping). Never throws.
 */
export function sendToTarget(
  target: Target,
  body: string,
  headers: Readonly<Record<string, string>>,
  limits: SendLimits,
  agents: Agents,
  signal?: AbortSignal,
  register?: CutOffRegistry,
): Promise<SendOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const isHttps = target.url.protocol === 'https:';
    let request: http.ClientRequest;
    try {
      request = (isHttps ? https : http).request({
        method: 'POST',
        ...pinnedConnection(target),
        agent: isHttps ? agents.https : agents.http,
        headers: headerList(headers, target.url.host, body),
      });
    } catch (err) {
      // Setting the connection up may throw (a bad option, a socket destroyed while created): one failed
      // attempt like any other, never an exception out of a delivery.
      finish({ ok: false, statusCode: null, error: describeError(err as NodeJS.ErrnoException) });
      return;
    }
    // One deadline for the whole exchange: it cuts a connection that never answers, and an answer whose
    // body is still streaming once its status was already taken.
    const timer = setTimeout(() => {
      request.destroy();
      finish({ ok: false, statusCode: null, error: `timeout after ${limits.timeoutMs} ms` });
    }, limits.timeoutMs);
    const onAbort = () => {
      request.destroy();
      finish({ ok: false, statusCode: null, error: 'cancelled: the server is stopping' });
    };
    const cut = signal && cutOffs(signal);
    const unregister = register?.(onAbort);
    const cleanUp = () => {
      clearTimeout(timer);
      cut?.delete(onAbort);
      unregister?.();
    };
    request.on('close', cleanUp);
    cut?.add(onAbort);
    if (signal?.aborted) onAbort();
    request.on('error', (err: NodeJS.ErrnoException) => {
      finish({ ok: false, statusCode: null, error: describeError(err) });
    });
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > limits.maxResponseBytes) response.destroy();
      });
      response.on('error', () => {});
      finish(outcomeOf(status, response.headers.location));
    });
    request.end(body);
  });
}

/**
 * The request's headers as node's flat list (`[name, value, …]`, which it writes as they are instead of
 * storing each one first), with the Host and Content-Length of this POST in place of any given.
 */
function headerList(headers: Readonly<Record<string, string>>, host: string, body: string): string[] {
  const list: string[] = [];
  for (const name of Object.keys(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'host' || lower === 'content-length') continue;
    list.push(name, headers[name] as string);
  }
  list.push('host', host, 'content-length', String(Buffer.byteLength(body)));
  return list;
}

/**
 * The POSTs in flight under each stop signal, each with how to cut it off: one listener per signal (an
 * engine's, shared by all its attempts) instead of one per POST.
 */
const inFlight = new WeakMap<AbortSignal, Set<() => void>>();

function cutOffs(signal: AbortSignal): Set<() => void> {
  let set = inFlight.get(signal);
  if (!set) {
    const mine = new Set<() => void>();
    set = mine;
    inFlight.set(signal, mine);
    signal.addEventListener(
      'abort',
      () => {
        for (const cut of [...mine]) cut();
      },
      { once: true },
    );
  }
  return set;
}

function outcomeOf(status: number, location: string | undefined): SendOutcome {
  if (status >= 200 && status < 300) return { ok: true, statusCode: status };
  if (status >= 300 && status < 400) {
    const where = location ? ` to ${location.slice(0, 200)}` : '';
    return { ok: false, statusCode: status, error: `HTTP ${status}: redirect${where} not followed` };
  }
  return { ok: false, statusCode: status, error: `HTTP ${status}` };
}

function describeError(err: NodeJS.ErrnoException): string {
  const code = err.code ? ` (${err.code})` : '';
  return `connection failed${code}: ${err.message}`.slice(0, 500);
}
