import { mapPlatformError } from '../platform/errors.js';
import { PlatformUnavailableError, type TweetMissingReason } from '../platform/platform.js';
import { HttpError } from './errors.js';
import type { Handler, HandlerMap } from './handler.js';

/**
 * The HTTP answer for a failure of the platform (spec 7), or the error itself when it is not one:
 * - an error a platform registered a mapping for (`core/platform/errors.ts`: a cursor or input the platform
 *   refuses, the simulated platform's `*_not_found`) keeps the code that mapping gives (400, 404);
 * - the platform being down or refusing the app is `x_api_unavailable` / `x_api_unauthorized`: 502 by
 *   default, 424 under the opt-in contract (spec 4.1); a busy platform (its rate limit) is 503
 *   `x_api_rate_limited` with `Retry-After`. None of these is charged: they are thrown before any charge.
 */
export function toHttpError(err: unknown, optIn: boolean): unknown {
  if (err instanceof HttpError) return err;
  const mapped = mapPlatformError(err);
  if (mapped) return new HttpError(mapped.code, mapped.message, mapped.extra);
  if (err instanceof PlatformUnavailableError) {
    if (err.code === 'x_api_rate_limited') {
      const wait = err.retryAfterSeconds ?? 1;
      return new HttpError('x_api_rate_limited', err.message, { retryAfter: wait }, 503, {
        'retry-after': String(wait),
      });
    }
    return new HttpError(err.code, err.message, {}, optIn ? 424 : 502);
  }
  return err;
}

/** Wraps every handler of a map so that platform failures become their HTTP answers ({@link toHttpError}). */
export function withPlatformErrors<M extends HandlerMap>(handlers: M): M {
  const out: Record<string, Handler> = {};
  for (const [id, handler] of Object.entries(handlers) as [string, Handler][]) {
    out[id] = async (ctx) => {
      try {
        return await handler(ctx);
      } catch (err) {
        throw toHttpError(err, ctx.optIn);
      }
    };
  }
  return out as M;
}

const MISSING_WORDS: Record<TweetMissingReason, string> = {
  deleted: 'the tweet was deleted',
  author_suspended: 'the author of the tweet is suspended',
  protected: 'the tweet belongs to a protected account',
  not_found: 'no tweet with this id',
};

/** 404 `tweet_not_found`, with `reason` when the platform knows why (spec 4.10). */
export function tweetNotFound(reason: TweetMissingReason): HttpError {
  return new HttpError('tweet_not_found', MISSING_WORDS[reason], reason === 'not_found' ? {} : { reason });
}

/** 404 `user_not_found`. */
export function userNotFound(ref: string, extra: Record<string, unknown> = {}): HttpError {
  return new HttpError('user_not_found', `no user ${ref}`, extra);
}

/** 403 `x_account_protected`: reads of a protected account's timelines and lists are refused, free (spec 7). */
export function accountProtected(username: string): HttpError {
  return new HttpError(
    'x_account_protected',
    `@${username} is protected: only approved followers can read it`,
  );
}

/** 404 `not_found` for a list or community. */
export function notFound(what: string, id: string): HttpError {
  return new HttpError('not_found', `no ${what} ${id}`);
}

/** Runs a control mutation; its errors carry the spec's codes (invalid_input 400, user_not_found 404, ...). */
export async function control<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const mapped = mapPlatformError(err);
    if (mapped) throw new HttpError(mapped.code, mapped.message, mapped.extra);
    throw err;
  }
}
