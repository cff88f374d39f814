import { describe, expect, it } from 'vitest';
import { eventPayload, type NewEvent } from '../../src/core/events/store.js';
import { eventBody, UndeliverableEventError } from '../../src/features/webhooks/signed-request.js';
import { seededRandom as random } from '../helpers/random.js';

/**
 * `eventBody` as it was before it spliced the delivery id into payloads in the writer's layout: it parses
 * the payload and stringifies `{ eventType, schemaVersion, deliveryId, streamEventId, ...rest }`. The bodies
 * must stay byte for byte what it made (receivers verify signatures over the bytes).
 */
function referenceBody(storedPayload: string, eventId: string, deliveryId: string): string {
  let payload: unknown;
  try {
    payload = JSON.parse(storedPayload);
  } catch {
    throw new UndeliverableEventError(`stored event ${eventId} has a payload that is not JSON`);
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload))
    throw new UndeliverableEventError(`stored event ${eventId} has a payload that is not a JSON object`);
  const {
    eventType,
    schemaVersion,
    deliveryId: _d,
    streamEventId: _s,
    ...rest
  } = payload as Record<string, unknown>;
  return JSON.stringify({ eventType, schemaVersion, deliveryId, streamEventId: eventId, ...rest });
}

const PIECES = [
  'plain',
  'é',
  '日本語',
  '😀',
  '\uD83D',
  '\uDE00',
  '"',
  '\\',
  '\n',
  '\t',
  '\u0000',
  '\u001f',
  '\u2028',
  '</script>',
  '","deliveryId":"x',
  '"streamEventId":',
  ' ',
  '{}',
  '__proto__',
];

function text(next: () => number): string {
  let s = '';
  const n = Math.floor(next() * 6);
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(next() * PIECES.length)];
  return s;
}

/** A JSON value of any shape, objects with odd keys (index-like, `__proto__`, the head's own names) too. */
function value(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 2 ? 5 : 7));
  switch (pick) {
    case 0:
      return text(next);
    case 1:
      return [0, -0, 1.5, 1e21, -3e-7, 2 ** 53, 42][Math.floor(next() * 7)];
    case 2:
      return next() < 0.5;
    case 3:
      return null;
    case 4:
      return text(next).length;
    case 5:
      return Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1));
    default: {
      const keys = [
        'text',
        '1',
        '0',
        '__proto__',
        'eventType',
        'deliveryId',
        'streamEventId',
        'é',
        text(next),
      ];
      const entries = Array.from({ length: Math.floor(next() * 5) }, () => [
        keys[Math.floor(next() * keys.length)],
        value(next, depth + 1),
      ]);
      // Through JSON, so a `__proto__` key is an own key, as a parsed payload has it.
      return JSON.parse(
        `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`,
      );
    }
  }
}

function storedEvent(next: () => number, id: string): NewEvent {
  const data = value(next, 0);
  return {
    id,
    accountId: 'acc_1',
    monitorId: next() < 0.5 ? 'mon_1' : null,
    keywordMonitorId: null,
    eventType: next() < 0.5 ? 'tweet.new' : 'profile.avatar.changed',
    username: next() < 0.5 ? text(next) : null,
    query: next() < 0.3 ? text(next) : null,
    occurredAt: 1_700_000_000_000 + Math.floor(next() * 1e9),
    dedupeKey: 'k',
    data: (data !== null && typeof data === 'object' && !Array.isArray(data) ? data : { v: data }) as Record<
      string,
      unknown
    >,
  };
}

/** Payloads not in the writer's layout: other orders, extra or missing head keys, other spacing. */
function otherLayout(next: () => number, e: NewEvent): string {
  const p = eventPayload(e);
  const { eventType, schemaVersion, streamEventId, ...rest } = p;
  const variants: (() => string)[] = [
    () => JSON.stringify({ schemaVersion, eventType, streamEventId, ...rest }),
    () => JSON.stringify({ eventType, schemaVersion, deliveryId: 'dlv_stored', streamEventId, ...rest }),
    () => JSON.stringify({ eventType, schemaVersion, streamEventId, deliveryId: 'dlv_stored', ...rest }),
    () => JSON.stringify({ eventType, schemaVersion, streamEventId: 'evt_other', ...rest }),
    () => JSON.stringify({ eventType, schemaVersion, ...rest }),
    () => JSON.stringify({ eventType, schemaVersion: '1', streamEventId, ...rest }),
    () => JSON.stringify({ eventType: 7, schemaVersion, streamEventId, ...rest }),
    () => JSON.stringify({ 1: 'first', eventType, schemaVersion, streamEventId, ...rest }),
    () => JSON.stringify(p, null, 1),
    () => ` ${JSON.stringify(p)}`,
    () => `${JSON.stringify(p)}\n`,
    () => JSON.stringify(p).replace('"schemaVersion":1', '"schemaVersion":1.0'),
    () => `${JSON.stringify(p).slice(0, -1)},"eventType":"again"}`,
    () => `${JSON.stringify(p).slice(0, -1)},"streamEventId":"evt_late"}`,
    () => `${JSON.stringify(p).slice(0, -1)},"1":"late"}`,
    () => `${JSON.stringify(p).slice(0, -1)},"__proto__":{"a":1}}`,
    () => `{"eventType":${JSON.stringify(eventType)},"schemaVersion":1,"streamEventId":"${e.id}"}`,
  ];
  return (variants[Math.floor(next() * variants.length)] as () => string)();
}

describe('eventBody', () => {
  it('makes the same bytes as parsing and stringifying, for payloads as the store writes them', () => {
    const next = random(30);
    for (let i = 0; i < 5_000; i++) {
      const id = `evt_${i.toString(16).padStart(8, '0')}`;
      const stored = JSON.stringify(eventPayload(storedEvent(next, id)));
      const deliveryId = `dlv_${i}${i % 7 === 0 ? '"\\é' : ''}`;
      expect(eventBody(stored, id, deliveryId), `case ${i}: ${stored}`).toBe(
        referenceBody(stored, id, deliveryId),
      );
    }
  });

  it('makes the same bytes for payloads in any other layout', () => {
    const next = random(31);
    for (let i = 0; i < 5_000; i++) {
      const id = `evt_${i}`;
      const stored = otherLayout(next, storedEvent(next, id));
      expect(eventBody(stored, id, `dlv_${i}`), `case ${i}: ${stored}`).toBe(
        referenceBody(stored, id, `dlv_${i}`),
      );
    }
  });

  it('gives the stored event id as streamEventId, whatever the payload says', () => {
    const stored = JSON.stringify(eventPayload(storedEvent(random(1), 'evt_a')));
    const body = JSON.parse(eventBody(stored, 'evt_b', 'dlv_1')) as Record<string, unknown>;
    expect(body.streamEventId).toBe('evt_b');
    expect(Object.keys(body).slice(0, 4)).toEqual([
      'eventType',
      'schemaVersion',
      'deliveryId',
      'streamEventId',
    ]);
  });

  it('still refuses damaged payloads, with the same messages', () => {
    const good = JSON.stringify(eventPayload(storedEvent(random(2), 'evt_x')));
    const damaged = [
      good.slice(0, -1),
      `${good}}`,
      `${good.slice(0, -1)},}`,
      good.replace('"data":', '"data"'),
      '',
      'null',
      '[1]',
      '"text"',
      '42',
      'true',
    ];
    for (const stored of damaged) {
      let expected: unknown;
      try {
        referenceBody(stored, 'evt_x', 'dlv_1');
      } catch (err) {
        expected = err;
      }
      expect(expected, stored).toBeInstanceOf(UndeliverableEventError);
      expect(() => eventBody(stored, 'evt_x', 'dlv_1'), stored).toThrow(
        new UndeliverableEventError((expected as Error).message),
      );
    }
  });
});
