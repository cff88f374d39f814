import { createHash } from 'node:crypto';
import type { EventType, TweetEventType } from '@xsvc/sdk/contract';
import type { NewEvent } from '../../../core/events/store.js';
import type { TimeIds } from '../../../core/ids/index.js';
import type { Tweet, UserProfile } from '../../../core/platform/platform.js';
import type { ProfileChange } from '../profile-diff.js';
import { tweetEventData } from '../tweet-data.js';

/** Which monitor an event comes from. */
export type EventSource =
  | { kind: 'account'; monitorId: string; accountId: string; username: string }
  | { kind: 'keyword'; keywordMonitorId: string; accountId: string; query: string };

function base(source: EventSource, ids: TimeIds, eventType: EventType, now: number, dedupeKey: string) {
  const account = source.kind === 'account';
  return {
    id: ids.next(now),
    accountId: source.accountId,
    monitorId: account ? source.monitorId : null,
    keywordMonitorId: account ? null : source.keywordMonitorId,
    eventType,
    username: account ? source.username : null,
    query: account ? null : source.query,
    occurredAt: now,
    dedupeKey,
  };
}

function sourceKey(source: EventSource): string {
  return source.kind === 'account' ? `m:${source.monitorId}` : `k:${source.keywordMonitorId}`;
}

/** One event per matched tweet type; each unique per (monitor, tweet, type). */
export function tweetEvents(
  source: EventSource,
  tweet: Tweet,
  author: NonNullable<Tweet['author']>,
  types: readonly TweetEventType[],
  ids: TimeIds,
  now: number,
): NewEvent[] {
  const data = tweetEventData(tweet, author);
  return types.map((type) => ({
    ...base(source, ids, type, now, `${sourceKey(source)}:t:${tweet.id}:${type}`),
    data,
  }));
}

/**
 * One event per changed profile field: `data` is `{ userId, username, field, previous, current, user }` with
 * `user` the profile now. For `profile.unavailable.changed`, `previous` and `current` are booleans and
 * `reason` says why the account cannot be seen (`suspended`, `not_found`, …). Each event is unique per
 * (monitor, change, type), a change being the platform's change stamps before and after it.
 */
export function profileEvents(
  source: Extract<EventSource, { kind: 'account' }>,
  userId: string,
  changes: readonly ProfileChange[],
  profile: UserProfile | undefined,
  stamps: { previous: string; current: string },
  ids: TimeIds,
  now: number,
): NewEvent[] {
  const username = profile?.username ?? source.username;
  const change = createHash('sha256').update(`${stamps.previous}>${stamps.current}`).digest('base64url');
  return changes.map((c) => {
    const unavailable = c.field === 'unavailable';
    const data: Record<string, unknown> = {
      userId,
      username,
      field: c.field,
      previous: unavailable ? c.previous !== false : c.previous,
      current: unavailable ? c.current !== false : c.current,
      ...(unavailable && c.current !== false && { reason: c.current }),
      ...(profile && { user: profile }),
    };
    return { ...base(source, ids, c.type, now, `${sourceKey(source)}:p:${change}:${c.type}`), data };
  });
}
