import { mockError } from '@xsvc/sdk/testing';
import type { StoredEvent } from '../../src/interactive/shared/event-stream.js';
import { queryOf } from './helpers.js';

/** A stored tweet event as GET /events returns it. */
export function tweetEvent(id: string, text = `tweet ${id}`, type = 'tweet.new'): StoredEvent {
  return {
    id,
    type,
    monitorId: 'mon_1',
    monitorType: 'account',
    username: 'jack',
    occurredAt: '2026-04-29T12:00:00.000Z',
    data: {
      id: `9${id}`,
      text,
      author: { id: '12', userName: 'jack', name: 'Jack' },
      isRetweet: false,
      isReply: type === 'tweet.reply',
      isQuote: false,
      createdAt: '2026-04-29T11:59:59.000Z',
    },
    xEventId: `9${id}`,
  };
}

/** One scripted answer of GET /events: a page, or an error response. */
export type EventsAnswer = { events: StoredEvent[]; hasMore?: boolean; nextCursor?: string } | Response;

/**
 * A listEvents override answering from a script, in order, recording the `after` of each call; past the
 * end of the script it answers empty pages.
 */
export function scriptedEvents(script: EventsAnswer[]) {
  const afters: (string | undefined)[] = [];
  const answer = ({ request }: { request: Request }) => {
    afters.push(queryOf(request).after);
    const next = script.shift() ?? { events: [] };
    if (next instanceof Response) return next;
    return {
      events: next.events,
      hasMore: next.hasMore ?? false,
      ...(next.nextCursor !== undefined && { nextCursor: next.nextCursor }),
    };
  };
  return { answer, afters };
}

/** A 429 with `Retry-After` in seconds, as the service throttles reads. */
export function rateLimited(seconds: number): Response {
  return mockError(429, 'rate_limit_exceeded', { retryAfter: seconds }, { 'Retry-After': String(seconds) });
}
