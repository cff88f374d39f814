import type { WriteActionData } from '@xsvc/sdk';

/** The profile URL base a created tweet's link is built on (the platform's own). */
const PLATFORM = 'https://x.com';

/**
 * What a durable write did, in a few lines (the full action is for `--json`): the action and its state,
 * what it produced (a tweet with its URL, a message, media, a state such as `liked`), what it acted on, and
 * the credits it cost.
 */
export function summarizeAction(d: WriteActionData): Record<string, string> {
  const out: Record<string, string> = { action: d.action, status: d.status };
  const produced = d.result?.id ?? d.resultId;
  const type = d.result?.type;
  if (type === 'tweet' || (type === undefined && d.tweetId !== undefined)) {
    const id = produced ?? d.tweetId;
    if (id !== undefined) {
      out.tweet = id;
      const user = d.account?.username;
      out.url = user ? `${PLATFORM}/${user}/status/${id}` : `${PLATFORM}/i/web/status/${id}`;
    }
  } else if (produced !== undefined && type !== 'state_change') {
    out[type === 'direct_message' ? 'message' : (type ?? 'result')] = produced;
  }
  if (d.mediaUrl !== undefined) out['media-url'] = d.mediaUrl;
  if (d.result?.state !== undefined && type !== 'tweet') out.state = d.result.state;
  if (d.target) out.target = `${d.target.type} ${d.target.id}`;
  if (d.account?.username) out.account = `@${d.account.username}`;
  if (d.charged) out.credits = d.chargedCredits;
  if (d.error) out.error = d.error;
  out['write-id'] = d.id;
  return out;
}
