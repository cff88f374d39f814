import { request as httpRequest, type IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';

/**
 * `fetch` over `node:http` for the command's one-shot calls. Node's own `fetch` (undici) costs about 100 ms
 * of CPU to load and to compile its HTTP parser before the first request: more than all the rest of an
 * operation command. A JSON answer comes back as a small {@link Response}-shaped object, read from a
 * buffer; anything else (a file such as a CSV export, an event stream) as a real `Response` streamed from
 * the socket, never held whole in memory. Requests this
 * does not handle (a form or multipart body, another scheme) go to the global `fetch`.
 */
export async function nodeFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = input instanceof URL ? input : typeof input === 'string' ? new URL(input) : undefined;
  if (
    !url ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    (init.body !== undefined && init.body !== null && typeof init.body !== 'string')
  ) {
    return fetch(input, init);
  }
  const res = await send(url, init);
  const location = res.headers.location;
  const status = res.statusCode ?? 0;
  const method = (init.method ?? 'GET').toUpperCase();
  if (location && REDIRECTS.has(status) && init.redirect !== 'manual' && method === 'GET') {
    res.resume();
    const hops = (init as { hops?: number }).hops ?? 0;
    if (hops >= 5) throw new TypeError(`too many redirects from ${url.href}`);
    return nodeFetch(new URL(location, url), { ...init, hops: hops + 1 } as RequestInit);
  }
  const type = String(res.headers['content-type'] ?? '');
  if (type === '' || /^application\/([\w.+-]*\+)?json\b/i.test(type)) {
    return buffered(res, await readAll(res, init.signal));
  }
  return new Response(NULL_BODY.has(status) ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
    status,
    statusText: res.statusMessage ?? '',
    headers: headersOf(res),
  });
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Statuses whose answer has no body (`Response.body` is null). */
const NULL_BODY = new Set([101, 204, 205, 304]);

async function send(url: URL, init: RequestInit): Promise<IncomingMessage> {
  // `node:https` (and with it TLS and crypto) is loaded only for an https URL: a local service is http.
  const request = url.protocol === 'https:' ? (await import('node:https')).request : httpRequest;
  return new Promise((resolve, reject) => {
    const signal = init.signal ?? undefined;
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const headers = plainHeaders(init.headers);
    const req = request(url, {
      method: init.method ?? 'GET',
      headers: {
        ...headers,
        ...(typeof init.body === 'string' && { 'content-length': String(Buffer.byteLength(init.body)) }),
      },
    });
    const onAbort = () => req.destroy(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('response', (res) => {
      res.on('close', () => signal?.removeEventListener('abort', onAbort));
      resolve(res);
    });
    req.on('error', (err) => {
      signal?.removeEventListener('abort', onAbort);
      reject(err);
    });
    req.end(typeof init.body === 'string' ? init.body : undefined);
  });
}

/** Request headers as a plain object, without touching the global `Headers` (it loads undici). */
function plainHeaders(h: HeadersInit | undefined): Record<string, string> {
  if (!h) return {};
  if (Array.isArray(h)) return Object.fromEntries(h);
  if (typeof (h as Headers).forEach === 'function') {
    const out: Record<string, string> = {};
    (h as Headers).forEach((v, k) => {
      out[k] = v;
    });
    return out;
  }
  return { ...(h as Record<string, string>) };
}

function readAll(res: IncomingMessage, signal: AbortSignal | null | undefined): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks)));
    res.on('error', reject);
    res.on('aborted', () => reject(signal?.reason ?? new Error('the connection closed mid-answer')));
  });
}

/** The answer's headers as `Headers`-like, read only. */
class LightHeaders {
  readonly #map: Map<string, string>;
  constructor(res: IncomingMessage) {
    this.#map = new Map(Object.entries(headersOf(res)));
  }
  get(name: string): string | null {
    return this.#map.get(name.toLowerCase()) ?? null;
  }
  has(name: string): boolean {
    return this.#map.has(name.toLowerCase());
  }
  forEach(fn: (value: string, key: string) => void): void {
    for (const [k, v] of this.#map) fn(v, k);
  }
  entries(): IterableIterator<[string, string]> {
    return this.#map.entries();
  }
  keys(): IterableIterator<string> {
    return this.#map.keys();
  }
  values(): IterableIterator<string> {
    return this.#map.values();
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.#map.entries();
  }
}

function headersOf(res: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) {
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(k === 'set-cookie' ? '\n' : ', ') : v;
  }
  return out;
}

/** A JSON or text answer, read: the parts of a `Response` the SDK and the CLI read. */
function buffered(res: IncomingMessage, data: Buffer): Response {
  const status = res.statusCode ?? 0;
  const headers = new LightHeaders(res);
  let used = false;
  const take = () => {
    if (used) throw new TypeError('the body has been read already');
    used = true;
    return data;
  };
  const light = {
    ok: status >= 200 && status < 300,
    status,
    statusText: res.statusMessage ?? '',
    headers,
    redirected: false,
    type: 'basic',
    url: '',
    get bodyUsed() {
      return used;
    },
    get body() {
      return used || NULL_BODY.has(status)
        ? null
        : (Readable.toWeb(Readable.from([take()])) as ReadableStream<Uint8Array>);
    },
    text: async () => take().toString('utf8'),
    json: async () => JSON.parse(take().toString('utf8')) as unknown,
    arrayBuffer: async () => {
      const b = take();
      return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
    },
    clone: () => buffered(res, data),
  };
  return light as unknown as Response;
}
