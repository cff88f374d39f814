import { mockError } from '@xsvc/sdk/testing';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { parseWatchOptions, run, watchEvents } from '../../src/interactive/monitors-watch.js';
import { summarizeEvent } from '../../src/interactive/shared/event-summary.js';
import { inCi } from '../../src/interactive/shared/output.js';
import { EventFeed } from '../../src/interactive/views/event-feed.js';
import { rateLimited, scriptedEvents, tweetEvent } from './fixtures.js';
import { contextFor, fakeIo, instantSleep, jsonLines, mockClient, queryOf } from './helpers.js';

describe('monitors watch', () => {
  it('prints only events newer than the newest at start, as JSON lines when piped, backing off on 429', async () => {
    // The service lists events newest first; `after` pages to older ones.
    const events = scriptedEvents([
      { events: [tweetEvent('2'), tweetEvent('1')], hasMore: true, nextCursor: 'c1' },
      { events: [tweetEvent('3'), tweetEvent('2'), tweetEvent('1')] },
      rateLimited(3),
      { events: [tweetEvent('5'), tweetEvent('4')], hasMore: true, nextCursor: 'c4' },
      { events: [tweetEvent('3'), tweetEvent('2')], hasMore: true, nextCursor: 'c2' },
    ]);
    const { client, requests } = mockClient({ listEvents: events.answer });
    const io = fakeIo(false);
    const controller = new AbortController();
    const { sleep, waits } = instantSleep(controller, 4);
    const ctx = contextFor(client, io, { signal: controller.signal });
    const code = await watchEvents(ctx, { pollIntervalMs: 250 }, { sleep });
    expect(code).toBe(0);
    expect(jsonLines(io.stdout).map((e) => (e as { id: string }).id)).toEqual(['3', '4', '5']);
    expect(events.afters).toEqual([undefined, undefined, undefined, undefined, 'c4']);
    expect(waits).toEqual([250, 250, 3_000, 250]);
    expect(requests.every((r) => queryOf(r).limit === '100')).toBe(true);
  });

  it('starts after --since and scopes to the monitor', async () => {
    const events = scriptedEvents([
      { events: [tweetEvent('9'), tweetEvent('8'), tweetEvent('7'), tweetEvent('6')] },
    ]);
    const { client, requests } = mockClient({ listEvents: events.answer });
    const io = fakeIo(false);
    const controller = new AbortController();
    const { sleep } = instantSleep(controller, 1);
    const ctx = contextFor(client, io, { signal: controller.signal, json: true });
    await watchEvents(ctx, { since: '7', monitorId: 'mon_1', pollIntervalMs: 10 }, { sleep });
    expect(jsonLines(io.stdout).map((e) => (e as { id: string }).id)).toEqual(['8', '9']);
    expect(queryOf(requests[0]!)).toMatchObject({ monitorId: 'mon_1' });
    expect(queryOf(requests[0]!).after).toBeUndefined();
  });

  it('prints JSON lines instead of a live view under CI, even on a terminal', async () => {
    const events = scriptedEvents([{ events: [] }, { events: [tweetEvent('1')] }]);
    const { client } = mockClient({ listEvents: events.answer });
    const io = fakeIo(true);
    const controller = new AbortController();
    const { sleep } = instantSleep(controller, 2);
    const ctx = contextFor(client, io, { signal: controller.signal, env: { CI: 'true' } });
    expect(await watchEvents(ctx, { pollIntervalMs: 5 }, { sleep })).toBe(0);
    expect(jsonLines(io.stdout).map((e) => (e as { id: string }).id)).toEqual(['1']);
    expect(io.stdout.text()).not.toContain('Watching');
    expect(inCi({ CI: 'false' })).toBe(false);
    expect(inCi({ CONTINUOUS_INTEGRATION: '1' })).toBe(true);
  });

  it('backs off exponentially while the service is unavailable and throws on authentication errors', async () => {
    const events = scriptedEvents([
      mockError(503, 'service_unavailable'),
      mockError(503, 'service_unavailable'),
      { events: [] },
      mockError(401, 'unauthenticated'),
    ]);
    const { client } = mockClient({ listEvents: events.answer });
    const controller = new AbortController();
    const { sleep, waits } = instantSleep(controller);
    const ctx = contextFor(client, fakeIo(false), { signal: controller.signal });
    await expect(watchEvents(ctx, { pollIntervalMs: 1_000 }, { sleep })).rejects.toMatchObject({
      code: 'unauthenticated',
    });
    expect(waits).toEqual([1_000, 2_000, 1_000]);
  });

  it('renders the feed on a terminal and stops cleanly on the signal', async () => {
    const events = scriptedEvents([
      { events: [tweetEvent('1')] },
      { events: [tweetEvent('2', 'hello   world\nfrom the feed', 'tweet.reply'), tweetEvent('1')] },
    ]);
    const { client } = mockClient({ listEvents: events.answer });
    const io = fakeIo(true);
    const controller = new AbortController();
    const { sleep } = instantSleep(controller, 2);
    const code = await watchEvents(
      contextFor(client, io, { signal: controller.signal }),
      { pollIntervalMs: 5 },
      { sleep },
    );
    expect(code).toBe(0);
    const out = io.stdout.text();
    expect(out).toContain('Watching all monitors · 1 event');
    expect(out).toContain('tweet.reply');
    expect(out).toContain('hello world from the feed');
    expect(out).not.toContain('tweet 1');
  });

  it('rejects a malformed poll interval with exit code 2 naming the variable', async () => {
    const { client } = mockClient();
    const io = fakeIo(false);
    expect(await run(contextFor(client, io, { env: { XSVC_POLL_INTERVAL_MS: 'soon' } }), {})).toBe(2);
    expect(io.stderr.text()).toContain('XSVC_POLL_INTERVAL_MS');
    expect(parseWatchOptions({ monitor: 'm', keywordMonitor: 'k' }, {})).toEqual({
      monitorId: 'm',
      keywordMonitorId: 'k',
      since: undefined,
      pollIntervalMs: 1_000,
    });
  });
});

describe('EventFeed view', () => {
  it('shows the count, the newest events first and a note', () => {
    const summaries = [tweetEvent('2', 'second'), tweetEvent('1', 'first')].map((e) => summarizeEvent(e));
    const { lastFrame } = render(
      <EventFeed
        events={summaries}
        count={2}
        scope="monitor mon_1"
        note="Rate limited: retrying in 1s"
        color={false}
      />,
    );
    const frame = lastFrame() ?? '';
    expect(frame).toContain('Watching monitor mon_1 · 2 events');
    expect(frame).toContain('Rate limited: retrying in 1s');
    expect(frame.indexOf('second')).toBeLessThan(frame.indexOf('first'));
    expect(frame).toContain('12:00:00');
    expect(frame).toContain('@jack');
  });

  it('says when nothing arrived yet', () => {
    const { lastFrame } = render(<EventFeed events={[]} count={0} scope="all monitors" color />);
    expect(lastFrame()).toContain('No new events yet.');
  });
});
