import { schemas, strictify } from '@xsvc/sdk/contract';
import { HttpResponse, http, type JsonBodyType } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import {
  type CreateXApiPlatformOptions,
  createXApiPlatform,
  type XApiPlatform,
} from '../../src/platform/xapi/index.js';
import { invalidRequest, unauthorized } from './fixtures/errors.js';
import { XFactsChecker } from './x-facts.js';

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

/** A user's OAuth 2.0 token and the scopes it was granted (for handlers of user-context operations). */
export const USER_TOKENS: Record<string, readonly string[]> = {};

/**
 * Every request the stand-in receives is checked against X's facts table (`x-facts.ts`); the violations of a
 * test fail it ({@link useXServer}).
 */
export const xFacts = new XFactsChecker({ appToken: TOKEN, userTokens: USER_TOKENS });

type Answer = JsonBodyType | Response;
type Resolver = (url: URL, request: Request) => Answer | Promise<Answer>;
type Method = 'get' | 'post' | 'put' | 'delete' | 'patch';

/**
 * A handler for `{METHOD} {BASE}{path}` that first checks the request against X's facts (a request X's
 * description does not allow is recorded and answered 400, as X would), then, like X, answers 401 to a token
 * it does not know, and otherwise answers `body` (or what `body(url, request)` returns) as JSON.
 */
export function xroute(method: Method, path: string, body: Answer | Resolver) {
  return http[method](`${BASE}${path}`, async ({ request }) => {
    const check = xFacts.check(request, await jsonBodyOf(request));
    if (check.problems.length > 0)
      return HttpResponse.json(invalidRequest(check.problems.join('; ')), { status: 400 });
    const auth = request.headers.get('authorization') ?? '';
    const bearer = auth.startsWith('Bearer ') ? auth.slice('Bearer '.length) : undefined;
    if (bearer !== TOKEN && (bearer === undefined || !USER_TOKENS[bearer])) {
      return HttpResponse.json(unauthorized, { status: 401 });
    }
    const url = new URL(request.url);
    seen.push(url);
    const answer = typeof body === 'function' ? await body(url, request) : body;
    return answer instanceof Response ? answer : HttpResponse.json(answer);
  });
}

/** A request's JSON body, parsed (read from a clone, so the handler can still read it), or undefined. */
async function jsonBodyOf(request: Request): Promise<unknown> {
  if (!(request.headers.get('content-type') ?? '').includes('json')) return undefined;
  try {
    return JSON.parse(await request.clone().text());
  } catch {
    return undefined;
  }
}

/** {@link xroute} for `GET`. */
export function xget(path: string, body: Answer | Resolver) {
  return xroute('get', path, body);
}

/**
 * An msw server for one test file: unhandled requests are errors, handlers reset after each test, and a
 * test whose requests X's facts do not allow fails with the list of what was wrong.
 */
export function useXServer() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    server.resetHandlers();
    seen.length = 0;
    const violations = xFacts.take();
    if (violations.length > 0) {
      throw new Error(
        `requests X's description does not allow:\n${violations.map((v) => `  ${v.method} ${v.url}: ${v.problem}`).join('\n')}`,
      );
    }
  });
  afterAll(() => server.close());
  return server;
}

/** The platform under test, pointed at the stand-in. */
export function platform(extra: Partial<CreateXApiPlatformOptions> = {}): XApiPlatform {
  return createXApiPlatform({ bearerToken: TOKEN, baseUrl: BASE, now: () => NOW, ...extra });
}

/** Days after the fixtures’ conversations (September 2020): their posts are within recent search's 7 days. */
export const FIXTURES_NOW = Date.UTC(2020, 8, 15);

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
