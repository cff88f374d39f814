import type { StoredEvent } from './event-stream.js';

/** What a line of a live feed shows about one event. */
export interface EventSummary {
  readonly id: string;
  readonly type: string;
  /** `@user` of the tweet author or watched account, or the keyword query in quotes. */
  readonly who: string;
  /** A one-line excerpt: the tweet text, or `field: old → new` for a profile change. */
  readonly text: string;
  readonly occurredAt: string;
}

/** Collapses whitespace and cuts `text` to `max` characters (by code point, so emoji stay whole). */
export function excerpt(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  return chars.length <= max ? flat : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function show(v: unknown): string {
  if (v === undefined || v === null || v === '') return '∅';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** Summarizes a stored event for one line of a feed, whatever its type. */
export function summarizeEvent(event: StoredEvent, maxText = 100): EventSummary {
  const data = event.data as Record<string, unknown>;
  const author = (data.author ?? {}) as Record<string, unknown>;
  const user = str(author.userName) ?? str(author.username) ?? str(data.username) ?? event.username;
  const who = user ? `@${user}` : event.query ? `"${event.query}"` : '';
  const text =
    typeof data.text === 'string'
      ? data.text
      : typeof data.field === 'string'
        ? `${data.field}: ${show(data.previous)} → ${show(data.current)}`
        : '';
  return { id: event.id, type: event.type, who, text: excerpt(text, maxText), occurredAt: event.occurredAt };
}
