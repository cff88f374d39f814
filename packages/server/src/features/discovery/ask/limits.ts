import { HttpError } from '../../../core/http/errors.js';
import type { HandlerContext } from '../../../core/http/handler.js';
import { consume } from '../../../core/limits/fixed-window.js';
import { clientKey } from '../../../core/limits/sign-in-limits.js';
import { AskFailure } from './answer.js';

/**
 * `/ask` requests per client address (an IPv6 client counts by its /64) in a fixed minute: the search is
 * public and anonymous (no credential is read) and costs a ranking over every document, so each address
 * gets a share; past it, 429 in `/ask`'s failure shape with `Retry-After`.
 */
export const ASK_PER_CLIENT = { limit: 60, windowMs: 60_000 } as const;

/** Counts one `/ask` request; throws the 429 when the caller's window is full. */
export async function countAsk(ctx: HandlerContext): Promise<void> {
  const { allowed, retryAfter } = await consume(ctx.services.database.db, {
    key: `ask:client:${clientKey(ctx.request.ip)}`,
    ...ASK_PER_CLIENT,
    now: ctx.services.clock.now(),
  });
  if (!allowed)
    throw new HttpError(
      'rate_limit_exceeded',
      `at most ${ASK_PER_CLIENT.limit} documentation searches a minute from one address`,
      { retryAfter },
      429,
      { 'retry-after': String(retryAfter) },
    );
}

/**
 * The two documentation hosts `site` may name (spec 4.2): the server's own host, which serves `/docs` and
 * `/openapi.json`, and its `docs.` host. Anything else is 400 `INVALID_QUERY`; a URL is read as its host.
 */
export function checkSite(site: string | undefined, base: string): void {
  if (site === undefined) return;
  const own = new URL(base).host.toLowerCase();
  const hosts = [own, `docs.${own}`];
  let host = site.trim().toLowerCase();
  try {
    if (/^https?:\/\//.test(host)) host = new URL(host).host;
  } catch {
    /* not a URL: compared as it is */
  }
  if (!hosts.includes(host.replace(/\/+$/, '')))
    throw new AskFailure(
      400,
      'INVALID_QUERY',
      `site must be one of the documentation hosts: ${hosts.join(', ')}`,
    );
}
