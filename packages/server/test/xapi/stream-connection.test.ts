import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  backoffWait,
  StreamConnection,
  type StreamMessage,
  type StreamNotice,
  X_STREAM_BACKOFF,
} from '../../src/platform/xapi/stream-connection.js';
import { streamParams } from '../../src/platform/xapi/stream-fields.js';
import { photoTweet } from './fixtures/tweets.js';
import { TOKEN, useXServer } from './helpers.js';
import { FakeXStream, until } from './stream-fake.js';

/** Short waits so the schedule shows in milliseconds: network +20 ms, HTTP from 40 ms, 429 from 80 ms. */
const FAST = {
  networkStepMs: 20,
  networkMaxMs: 60,
  httpFirstMs: 40,
  httpMaxMs: 200,
  rateLimitFirstMs: 80,
  rateLimitMaxMs: 1_000,
};

describe('the filtered stream connection', () => {
  const server = useXServer();
  let conn: StreamConnection | undefined;
  let fake: FakeXStream;
  beforeAll(async () => {
    fake = await new FakeXStream().listen();
  });
  afterEach(async () => {
    await conn?.stop();
    // A fresh stand-in state per test, on the same port.
    Object.assign(fake, { connections: [], refusals: [], attempts: [] });
  });
  afterAll(() => fake.close());

  function connect(opts: { stallMs?: number; now?: () => number } = {}) {
    server.use(fake.passthrough());
    const messages: StreamMessage[] = [];
    const notices: StreamNotice[] = [];
    conn = new StreamConnection({
      url: `${fake.origin}/2/tweets/search/stream?${new URLSearchParams(streamParams as Record<string, string>)}`,
      bearerToken: TOKEN,
      backoff: FAST,
      stallMs: opts.stallMs ?? 2_000,
      now: opts.now,
      onMessage: async (m) => {
        messages.push(m);
      },
      onNotice: (n) => notices.push(n),
    });
    conn.start();
    return { messages, notices, retries: () => notices.filter((n) => n.kind === 'retrying') };
  }

  it('asks for the stream’s fields and expansions, reads posts line by line and reports heartbeats', async () => {
    const { messages, notices } = connect();
    await until(() => fake.current !== undefined);
    const q = fake.current?.url.searchParams;
    expect(q?.get('tweet.fields')).toContain('referenced_tweets');
    expect(q?.get('expansions')).toContain('author_id');
    expect(q?.has('post.fields')).toBe(false);
    fake.heartbeat();
    const line = JSON.stringify({ data: photoTweet, matching_rules: [{ id: '1', tag: 'x' }] });
    // A post cut across two chunks, then a heartbeat.
    fake.current?.write(line.slice(0, 40));
    fake.current?.write(`${line.slice(40)}\r\n\r\n`);
    await until(() => messages.length === 1 && notices.filter((n) => n.kind === 'heartbeat').length === 2);
    expect(messages[0]?.data).toMatchObject({ id: photoTweet.id });
    expect(messages[0]?.matching_rules).toEqual([{ id: '1', tag: 'x' }]);
    expect(notices[0]).toEqual({ kind: 'connected' });
    expect(fake.connections).toHaveLength(1);
  });

  it('takes a connection with no data or heartbeat for the stall timeout as broken and reconnects', async () => {
    const { notices } = connect({ stallMs: 150 });
    await until(() => fake.connections.length === 1);
    await until(() => fake.connections.length === 2, 3_000, 'a reconnection');
    const stall = notices.find((n) => n.kind === 'disconnected');
    expect(stall).toEqual({ kind: 'disconnected', reason: 'no data or heartbeat from X for 0.15 s' });
    // The stalled connection was closed before the next one was opened: never two at once.
    const [first, second] = fake.connections;
    expect(first?.closedAt).toBeLessThanOrEqual(second?.openedAt as number);
    expect(fake.maxOpen).toBe(1);
    expect(notices).toContainEqual({ kind: 'retrying', cause: 'network', waitMs: 20 });
  });

  it('keeps a connection whose heartbeats come within the stall timeout', async () => {
    const { notices } = connect({ stallMs: 150 });
    await until(() => fake.current !== undefined);
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setTimeout(r, 60));
      fake.heartbeat();
    }
    expect(fake.connections).toHaveLength(1);
    expect(notices.some((n) => n.kind === 'disconnected')).toBe(false);
  });

  it('backs off linearly after disconnections, and starts over after a connection that worked', async () => {
    const { retries } = connect();
    for (let i = 1; i <= 4; i++) {
      await until(() => fake.connections.length === i && fake.current !== undefined);
      fake.current?.end();
    }
    await until(() => retries().length === 4);
    // Each connection was answered 200, which resets the schedule: every wait is the first step.
    expect(retries().map((n) => n.waitMs)).toEqual([20, 20, 20, 20]);
    expect(fake.maxOpen).toBe(1);
  });

  it('backs off exponentially after HTTP errors', async () => {
    fake.refusals = [{ status: 503 }, { status: 503 }, { status: 503 }];
    const { retries } = connect();
    await until(() => fake.current !== undefined, 3_000);
    expect(retries()).toEqual([
      { kind: 'retrying', cause: 'http', status: 503, waitMs: 40 },
      { kind: 'retrying', cause: 'http', status: 503, waitMs: 80 },
      { kind: 'retrying', cause: 'http', status: 503, waitMs: 160 },
    ]);
    const gaps = fake.attempts.slice(1).map((t, i) => t - (fake.attempts[i] as number));
    expect(gaps[0]).toBeGreaterThanOrEqual(35);
    expect(gaps[2]).toBeGreaterThanOrEqual(150);
  });

  it('backs off longer after 429, at least until x-rate-limit-reset', async () => {
    const now = Date.now();
    fake.refusals = [
      { status: 429 },
      { status: 429, headers: { 'x-rate-limit-reset': String(Math.ceil((now + 400) / 1000)) } },
    ];
    const { retries } = connect({ now: () => now });
    await until(() => retries().length === 2, 3_000);
    const [first, second] = retries() as Extract<StreamNotice, { kind: 'retrying' }>[];
    expect(first).toEqual({ kind: 'retrying', cause: 'rate_limit', status: 429, waitMs: 80 });
    expect(second?.cause).toBe('rate_limit');
    expect(second?.waitMs).toBeGreaterThanOrEqual(400);
  });

  it('waits the longest HTTP wait after 401 or 403 (a token or a tier without the stream), then tries again', async () => {
    fake.refusals = [{ status: 403 }];
    const { retries } = connect();
    await until(() => fake.current !== undefined, 3_000);
    expect(retries()).toEqual([{ kind: 'retrying', cause: 'http', status: 403, waitMs: FAST.httpMaxMs }]);
  });

  it('passes on X’s messages without a post (an operational disconnect) and skips a cut line', async () => {
    const { messages } = connect();
    await until(() => fake.current !== undefined);
    fake.current?.write('{"data": {"id": "1", "te\r\n');
    fake.current?.write(`${JSON.stringify({ errors: [{ title: 'operational-disconnect' }] })}\r\n`);
    await until(() => messages.length === 1);
    expect(messages[0]).toEqual({ errors: [{ title: 'operational-disconnect' }] });
  });

  it('waits as X documents: +250 ms to 16 s, 5 s doubling to 320 s, 1 minute doubling after 429', () => {
    expect([1, 2, 3, 64, 100].map((n) => backoffWait('network', n))).toEqual([250, 500, 750, 16_000, 16_000]);
    expect([1, 2, 3, 7, 8].map((n) => backoffWait('http', n))).toEqual([
      5_000, 10_000, 20_000, 320_000, 320_000,
    ]);
    expect([1, 2, 3].map((n) => backoffWait('rate_limit', n))).toEqual([60_000, 120_000, 240_000]);
    expect(backoffWait('rate_limit', 50)).toBe(X_STREAM_BACKOFF.rateLimitMaxMs);
  });

  it('stops: the connection is closed and no other is opened', async () => {
    connect();
    await until(() => fake.current !== undefined);
    await conn?.stop();
    await until(() => fake.connections[0]?.closedAt !== undefined, 2_000, 'the connection closed');
    await new Promise((r) => setTimeout(r, 60));
    expect(fake.connections).toHaveLength(1);
  });
});
