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
  const exchange = new Exchange(limits);
  const isHttps = target.url.protocol === 'https:';
  const where = connectionOf(target);
  let request: http.ClientRequest;
  try {
    request = (isHttps ? https : http).request({
      method: 'POST',
      host: where.host,
      port: where.port,
      path: where.path,
      ...(where.lookup && { lookup: where.lookup, servername: where.servername }),
      agent: isHttps ? agents.https : agents.http,
      headers: headerList(headers, target.url.host, body),
    });
  } catch (err) {
    // Setting the connection up may throw (a bad option, a socket destroyed while created): one failed
    // attempt like any other, never an exception out of a delivery.
    exchange.finish({ ok: false, statusCode: null, error: describeError(err as NodeJS.ErrnoException) });
    return exchange.done;
  }
  exchange.request = request;
  (request as Carrier)[EXCHANGE] = exchange;
  // One deadline for the whole exchange: it cuts a connection that never answers, and an answer whose
  // body is still streaming once its status was already taken.
  exchange.timer = setTimeout(timedOut, limits.timeoutMs, exchange);
  exchange.cut = signal && cutOffs(signal);
  if (register) exchange.unregister = register(() => exchange.abort());
  request.on('close', requestClosed);
  exchange.cut?.add(exchange);
  if (signal?.aborted) exchange.abort();
  request.on('error', requestFailed);
  request.on('response', answered);
  request.end(body);
  return exchange.done;
}

/** Where a request or its answer finds its {@link Exchange} (the listeners are shared: no closure per POST). */
const EXCHANGE = Symbol('exchange');

type Carrier = { [EXCHANGE]?: Exchange };

/** One POST's state, read by listeners shared by every POST (closures per POST were most of its garbage). */
class Exchange {
  request: http.ClientRequest | undefined;
  timer: NodeJS.Timeout | undefined;
  cut: Set<Exchange> | undefined;
  unregister: (() => void) | undefined;
  /** Bytes of the answer read so far. */
  read = 0;
  private settled = false;
  private resolve!: (outcome: SendOutcome) => void;
  readonly done = new Promise<SendOutcome>((resolve) => {
    this.resolve = resolve;
  });

  constructor(readonly limits: SendLimits) {}

  /** The first outcome is the POST's. */
  finish(outcome: SendOutcome): void {
    if (this.settled) return;
    this.settled = true;
    this.resolve(outcome);
  }

  /** Cuts the POST off (the server is stopping). */
  abort(): void {
    this.request?.destroy();
    this.finish({ ok: false, statusCode: null, error: 'cancelled: the server is stopping' });
  }

  cleanUp(): void {
    clearTimeout(this.timer);
    this.cut?.delete(this);
    this.unregister?.();
  }
}

function timedOut(exchange: Exchange): void {
  exchange.request?.destroy();
  exchange.finish({ ok: false, statusCode: null, error: `timeout after ${exchange.limits.timeoutMs} ms` });
}

function requestClosed(this: http.ClientRequest): void {
  (this as Carrier)[EXCHANGE]?.cleanUp();
}

function requestFailed(this: http.ClientRequest, err: NodeJS.ErrnoException): void {
  (this as Carrier)[EXCHANGE]?.finish({ ok: false, statusCode: null, error: describeError(err) });
}

function answered(this: http.ClientRequest, response: http.IncomingMessage): void {
  const exchange = (this as Carrier)[EXCHANGE];
  if (!exchange) return;
  (response as Carrier)[EXCHANGE] = exchange;
  response.on('data', answerChunk);
  response.on('error', ignore);
  exchange.finish(outcomeOf(response.statusCode ?? 0, response.headers.location));
}

function answerChunk(this: http.IncomingMessage, chunk: Buffer): void {
  const exchange = (this as Carrier)[EXCHANGE];
  if (!exchange) return;
  exchange.read += chunk.length;
  if (exchange.read > exchange.limits.maxResponseBytes) this.destroy();
}

function ignore(): void {}

/** Where requests to a target connect ({@link pinnedConnection}), kept per target: the same every time. */
const connections = new WeakMap<Target, ReturnType<typeof pinnedConnection>>();

function connectionOf(target: Target): ReturnType<typeof pinnedConnection> {
  let where = connections.get(target);
  if (!where) {
    where = pinnedConnection(target);
    connections.set(target, where);
  }
  return where;
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
const inFlight = new WeakMap<AbortSignal, Set<Exchange>>();

function cutOffs(signal: AbortSignal): Set<Exchange> {
  let set = inFlight.get(signal);
  if (!set) {
    const mine = new Set<Exchange>();
    set = mine;
    inFlight.set(signal, mine);
    signal.addEventListener(
      'abort',
      () => {
        for (const exchange of [...mine]) exchange.abort();
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
