/**
 * Calls through `openapi-fetch`, typed by the `paths` that `openapi-typescript` generates from the served
 * `/openapi.json`. The conformance test generates `openapi.d.ts` next to a copy of this file and type-checks
 * both (so a call that the document does not describe fails to compile), then runs these calls against the
 * server and validates every answer against the document. Excluded from the package's own typecheck:
 * `openapi.d.ts` exists only while the test runs.
 */
import createClient from 'openapi-fetch';
import type { paths } from './openapi.js';

/** One answer as the wire carried it, for validation against the document. */
export interface Exchange {
  readonly method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** The document's path template. */
  readonly path: keyof paths & string;
  readonly status: number;
  readonly contentType: string | null;
  readonly body: unknown;
}

type Result = { data?: unknown; error?: unknown; response: Response };

/** Typed calls of the main flows (reads, writes, lists, errors), each recorded as an {@link Exchange}. */
export async function typedCalls(baseUrl: string, apiKey: string): Promise<Exchange[]> {
  const api = createClient<paths>({ baseUrl, headers: { 'x-api-key': apiKey } });
  const anonymous = createClient<paths>({ baseUrl });
  const out: Exchange[] = [];
  const record = async <R extends Result>(
    method: Exchange['method'],
    path: Exchange['path'],
    call: Promise<R>,
  ): Promise<R> => {
    const r = await call;
    out.push({
      method,
      path,
      status: r.response.status,
      contentType: r.response.headers.get('content-type'),
      body: r.data ?? r.error,
    });
    return r;
  };

  await record('get', '/health', anonymous.GET('/health'));
  await record(
    'get',
    '/.well-known/oauth-authorization-server',
    anonymous.GET('/.well-known/oauth-authorization-server'),
  );
  const account = await record('get', '/api/v1/account', api.GET('/api/v1/account'));
  const plan: string | undefined = account.data?.plan;

  const tweet = await record(
    'get',
    '/api/v1/x/tweets/{id}',
    api.GET('/api/v1/x/tweets/{id}', { params: { path: { id: '20' } } }),
  );
  await record(
    'get',
    '/api/v1/x/tweets/{id}',
    api.GET('/api/v1/x/tweets/{id}', { params: { path: { id: '999999999999' } } }),
  );
  await record(
    'get',
    '/api/v1/x/tweets/search',
    api.GET('/api/v1/x/tweets/search', { params: { query: { q: 'hello' } } }),
  );
  await record(
    'get',
    '/api/v1/x/tweets/search',
    api.GET('/api/v1/x/tweets/search', { params: { query: { q: '' } } }),
  );
  await record(
    'get',
    '/api/v1/x/users/{id}',
    api.GET('/api/v1/x/users/{id}', { params: { path: { id: 'jack' } } }),
  );
  await record(
    'get',
    '/api/v1/x/users/{id}/followers',
    api.GET('/api/v1/x/users/{id}/followers', { params: { path: { id: 'jack' } } }),
  );
  await record(
    'get',
    '/api/v1/x/users/{id}',
    anonymous.GET('/api/v1/x/users/{id}', { params: { path: { id: 'jack' } } }),
  );
  await record('get', '/api/v1/trends', api.GET('/api/v1/trends'));
  await record('get', '/api/v1/radar', api.GET('/api/v1/radar', { params: { query: { limit: 5 } } }));

  const monitor = await record(
    'post',
    '/api/v1/monitors',
    api.POST('/api/v1/monitors', { body: { username: 'jack', eventTypes: ['tweet.new'] } }),
  );
  const monitorId: string = monitor.data?.id ?? 'missing';
  await record('get', '/api/v1/monitors', api.GET('/api/v1/monitors'));
  await record(
    'patch',
    '/api/v1/monitors/{id}',
    api.PATCH('/api/v1/monitors/{id}', { params: { path: { id: monitorId } }, body: { isActive: false } }),
  );
  await record(
    'delete',
    '/api/v1/monitors/{id}',
    api.DELETE('/api/v1/monitors/{id}', { params: { path: { id: monitorId } } }),
  );
  await record('get', '/api/v1/events', api.GET('/api/v1/events', { params: { query: { limit: 10 } } }));

  await record(
    'post',
    '/api/v1/compose',
    api.POST('/api/v1/compose', { body: { step: 'compose', topic: 'shipping a CLI' } }),
  );
  await record(
    'post',
    '/api/v1/compose',
    api.POST('/api/v1/compose', {
      body: { step: 'score', draft: 'We shipped it. What would you add?', hasLink: false },
    }),
  );
  const draft = await record(
    'post',
    '/api/v1/drafts',
    api.POST('/api/v1/drafts', { body: { text: 'a draft' } }),
  );
  const draftId: string = draft.data?.id ?? 'missing';
  await record('get', '/api/v1/drafts', api.GET('/api/v1/drafts'));
  await record(
    'delete',
    '/api/v1/drafts/{id}',
    api.DELETE('/api/v1/drafts/{id}', { params: { path: { id: draftId } } }),
  );

  await record(
    'post',
    '/api/v1/extractions/estimate',
    api.POST('/api/v1/extractions/estimate', {
      body: { toolType: 'follower_explorer', targetUsername: 'jack' },
    }),
  );
  await record(
    'post',
    '/api/v1/support/tickets',
    api.POST('/api/v1/support/tickets', { body: { subject: 'Help', body: 'It does not work.' } }),
  );
  await record('get', '/api/v1/support/tickets', api.GET('/api/v1/support/tickets'));
  await record('get', '/api/v1/draws', api.GET('/api/v1/draws'));
  await record('get', '/api/v1/x/accounts', api.GET('/api/v1/x/accounts'));
  await record('get', '/api/v1/webhooks', api.GET('/api/v1/webhooks'));

  // The types bite: a call the document does not describe does not compile.
  if (tweet.response.status === 0) {
    // @ts-expect-error `idx` is not a path parameter of the tweet lookup
    await api.GET('/api/v1/x/tweets/{id}', { params: { path: { idx: '20' } } });
    // @ts-expect-error a monitor needs its event types
    await api.POST('/api/v1/monitors', { body: { username: 'jack' } });
  }
  const likes: number | undefined = tweet.data?.tweet.likeCount;
  if (likes !== undefined && typeof likes !== 'number') throw new Error('likeCount is not a number');
  if (plan !== undefined && typeof plan !== 'string') throw new Error('plan is not a string');
  return out;
}
