/**
 * App code under test: posts a digest of an account's most liked recent tweet, and waits until the platform
 * confirms it. Reports the outcomes a caller acts on instead of throwing them.
 */
import { isErrorWithCode, type Tweet, WriteActionFailedError, type Xsvc } from '@xsvc/sdk';

export type DigestResult =
  | { outcome: 'posted'; tweetId: string | undefined; about: Tweet }
  | { outcome: 'nothing_to_post' }
  | { outcome: 'unknown_account' }
  | { outcome: 'not_posted'; reason: string };

export async function postDigest(client: Xsvc, username: string, account: string): Promise<DigestResult> {
  let best: Tweet | undefined;
  try {
    const page = await client.tweets.search({ q: `from:${username}`, queryType: 'Latest', limit: 20 });
    for (const tweet of page.items) if (!best || (tweet.likeCount ?? 0) > (best.likeCount ?? 0)) best = tweet;
  } catch (err) {
    if (isErrorWithCode(err, 'user_not_found')) return { outcome: 'unknown_account' };
    throw err;
  }
  if (!best) return { outcome: 'nothing_to_post' };
  const text = `Most liked from @${username} lately (${best.likeCount ?? 0} likes): ${best.text.slice(0, 200)}`;
  const action = await client.tweets.create({ account, text });
  try {
    const done = await action.wait({ timeoutMs: 10_000 });
    return { outcome: 'posted', tweetId: done.tweetId ?? undefined, about: best };
  } catch (err) {
    if (err instanceof WriteActionFailedError) return { outcome: 'not_posted', reason: err.action.status };
    throw err;
  }
}
