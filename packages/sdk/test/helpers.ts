import type { Route } from '../src/client/types.js';

/** One scripted answer of the fake fetch. */
export type Scripted =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { error: Error }
  | { hang: true };

export interface FakeFetch {
  fetch: typeof fetch;
  calls: {
    url: string;
    method: string;
    headers: Record<string, string>;
    body: string | undefined;
    at: number;
  }[];
}

/** A fetch that answers from a script, in order, and records every request. */
export function scriptedFetch(script: Scripted[]): FakeFetch {
  const calls: FakeFetch['calls'] = [];
  const queue = [...script];
  const f = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((v, k) => {
      headers[k] = v;
    });
    calls.push({
      url: String(input),
      method: init.method ?? 'GET',
      headers,
      body: typeof init.body === 'string' ? init.body : undefined,
      at: Date.now(),
    });
    const next = queue.shift();
    if (!next) throw new Error('fake fetch: no more scripted answers');
    if ('error' in next) throw next.error;
    if ('hang' in next) {
      return new Promise<Response>((_, reject) => {
        init.signal?.addEventListener('abort', () => reject(init.signal?.reason), { once: true });
      });
    }
    const text =
      next.body === undefined ? '' : typeof next.body === 'string' ? next.body : JSON.stringify(next.body);
    return new Response(text === '' ? null : text, {
      status: next.status,
      headers: { 'content-type': 'application/json', ...next.headers },
    });
  };
  return { fetch: f as typeof fetch, calls };
}

export const getRoute: Route = {
  id: 'lookupTweet',
  method: 'GET',
  path: '/api/v1/x/tweets/{id}',
  pathParams: ['id'],
  idempotent: true,
};

export const postRoute: Route = {
  id: 'createMonitor',
  method: 'POST',
  path: '/api/v1/monitors',
  pathParams: [],
  body: 'json',
  idempotent: false,
};

export const writeRoute: Route = {
  id: 'createTweet',
  method: 'POST',
  path: '/api/v1/x/tweets',
  pathParams: [],
  body: 'json',
  writeAction: 'create_tweet',
  idempotencyKey: true,
  idempotent: false,
};

export const listRouteB: Route = {
  id: 'searchTweets',
  method: 'GET',
  path: '/api/v1/x/tweets/search',
  pathParams: [],
  pagination: 'B',
  items: 'tweets',
  idempotent: true,
};

export const listRouteA: Route = {
  id: 'listEvents',
  method: 'GET',
  path: '/api/v1/events',
  pathParams: [],
  pagination: 'A',
  items: 'events',
  idempotent: true,
};
