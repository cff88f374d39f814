import { schemas, strictify } from '@xsvc/sdk/contract';
import { HttpResponse, http, type JsonBodyType } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createXApiPlatform, type XApiPlatform } from '../../src/platform/xapi/index.js';
import { unauthorized } from './fixtures/errors.js';

/** A loopback origin: even a request msw failed to intercept could not leave the machine. */
export const BASE = 'http://127.0.0.1:9';
/** A fake app token; tests assert it never shows up in an error. */
export const TOKEN = 'AAAA-test-bearer-token-0123456789-must-never-leak';
/** The fixed "now" of the tests (ms), for `x-rate-limit-reset`. */
export const NOW = Date.UTC(2026, 3, 29, 12);

export const StrictTweet = strictify(schemas.TweetSchema);
export const StrictUser = strictify(schemas.UserProfileSchema);

/** Requests the X API stand-in received in the current test, in order. */
export const seen: URL[] = [];

type Answer = JsonBodyType | Response;
type Resolver = (url: URL, request: Request) => Answer | Promise<Answer>;

/**
 * A handler for `GET {BASE}{path}` that, like X, answers 401 without the app's bearer token, and otherwise
 * answers `body` (or what `body(url)` returns) as JSON.
 */
export function xget(path: string, body: Answer | Resolver) {
  return http.get(`${BASE}${path}`, async ({ request }) => {
    if (request.headers.get('authorization') !== `Bearer ${TOKEN}`) {
      return HttpResponse.json(unauthorized, { status: 401 });
    }
    const url = new URL(request.url);
    seen.push(url);
    const answer = typeof body === 'function' ? await body(url, request) : body;
    return answer instanceof Response ? answer : HttpResponse.json(answer);
  });
}

/** An msw server for one test file: unhandled requests are errors, handlers reset after each test. */
export function useXServer() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    server.resetHandlers();
    seen.length = 0;
  });
  afterAll(() => server.close());
  return server;
}

/** The platform under test, pointed at the stand-in. */
export function platform(extra: { timeoutMs?: number } = {}): XApiPlatform {
  return createXApiPlatform({ bearerToken: TOKEN, baseUrl: BASE, now: () => NOW, ...extra });
}

/** A page request. */
export function pageOf(pageSize = 20, cursor?: string) {
  return cursor === undefined ? { pageSize } : { pageSize, cursor };
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(p: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await p;
  } catch (err) {
    return err as Error & Record<string, unknown>;
  }
  throw new Error('expected a rejection');
}
