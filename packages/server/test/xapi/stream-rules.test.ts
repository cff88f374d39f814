import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PlatformUnavailableError } from '../../src/core/platform/platform.js';
import { XStreamSource } from '../../src/platform/xapi/index.js';
import {
  packAuthors,
  parseTag,
  planRules,
  RULE_GRACE_MS,
  ruleKey,
  type XStreamRule,
} from '../../src/platform/xapi/stream-rules.js';
import { ENGINES, useMigratedDatabase } from '../helpers/server.js';
import { photoTweet, replyTweet } from './fixtures/tweets.js';
import { twitter, twitterDev } from './fixtures/users.js';
import { TOKEN, useXServer } from './helpers.js';
import { FakeXStream, until } from './stream-fake.js';

const NOW = Date.UTC(2026, 11, 3, 9);
const LIMITS = { maxRules: 5, maxRuleLength: 40 };
const sec = (ms: number) => Math.floor(ms / 1000);
const wanted = (authors: string[], queries: string[] = []) => ({
  authors: new Set(authors),
  queries: new Set(queries),
});

describe('planning the stream rules', () => {
  const old = `xsvc:from:${sec(NOW - RULE_GRACE_MS - 1000)}`;

  it('packs accounts into from: rules within the length limit', () => {
    expect(packAuthors(['1', '22', '333', '4444'], 21)).toEqual([
      'from:1 OR from:22',
      'from:333 OR from:4444',
    ]);
    expect(packAuthors([], 20)).toEqual([]);
  });

  it('adds what is missing, keeps what is needed, deletes its own stale rules and leaves others alone', () => {
    const existing: XStreamRule[] = [
      { id: 'a', value: 'from:1 OR from:2', tag: old },
      { id: 'b', value: 'from:3', tag: old },
      { id: 'c', value: 'cats', tag: `xsvc:q:${ruleKey('cats')}:${sec(NOW - RULE_GRACE_MS - 1000)}` },
      { id: 'd', value: 'from:3', tag: 'theirs' },
      { id: 'e', value: 'dogs' },
    ];
    const plan = planRules(existing, wanted(['1', '2', '7'], ['birds']), LIMITS, NOW);
    expect(plan.delete.sort()).toEqual(['b', 'c']);
    expect(plan.add).toEqual([
      { value: 'birds', tag: `xsvc:q:${ruleKey('birds')}:${sec(NOW)}` },
      { value: 'from:7', tag: `xsvc:from:${sec(NOW)}` },
    ]);
    expect(plan.refused).toEqual({ authors: [], queries: [] });
  });

  it('keeps a rule just added (a monitor being created) until the grace passes, and says when', () => {
    const young = `xsvc:from:${sec(NOW - 1000)}`;
    const plan = planRules([{ id: 'a', value: 'from:9', tag: young }], wanted([]), LIMITS, NOW);
    expect(plan.delete).toEqual([]);
    expect(plan.settleAt).toBe((sec(NOW) - 1) * 1000 + RULE_GRACE_MS);
    const later = planRules(
      [{ id: 'a', value: 'from:9', tag: young }],
      wanted([]),
      LIMITS,
      NOW + RULE_GRACE_MS,
    );
    expect(later.delete).toEqual(['a']);
  });

  it('repacks the account rules when new ones would exceed the rule count', () => {
    // Five one-account rules fill the set; a sixth account fits only once they are packed together.
    const existing = ['1', '2', '3', '4', '5'].map((id) => ({ id: `r${id}`, value: `from:${id}`, tag: old }));
    const plan = planRules(existing, wanted(['1', '2', '3', '4', '5', '6']), LIMITS, NOW);
    expect(plan.refused.authors).toEqual([]);
    expect(plan.delete.sort()).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
    expect(plan.add.map((r) => r.value)).toEqual([
      'from:1 OR from:2 OR from:3 OR from:4',
      'from:5 OR from:6',
    ]);
  });

  it('refuses what does not fit: a query longer than a rule, and beyond the count, queries then accounts', () => {
    const theirs = [1, 2, 3, 4].map((i) => ({ id: `t${i}`, value: `x${i}`, tag: 'theirs' }));
    const plan = planRules(theirs, wanted(['1', '2'], ['ok', 'y'.repeat(41), 'also']), LIMITS, NOW);
    expect(plan.refused.queries.sort()).toEqual(['also', 'ok', 'y'.repeat(41)].sort());
    expect(plan.add.map((r) => r.value)).toEqual(['from:1 OR from:2']);
    expect(plan.delete).toEqual([]);
  });

  it('reads its own tags only', () => {
    expect(parseTag('xsvc:from:12')).toEqual({ kind: 'from', at: 12_000 });
    expect(parseTag(`xsvc:q:${ruleKey('a')}:3`)).toEqual({ kind: 'q', key: ruleKey('a'), at: 3000 });
    expect(parseTag('other:from:12')).toBeUndefined();
    expect(parseTag(undefined)).toBeUndefined();
  });
});

describe.each(ENGINES)('the stream shared by instances (%s)', (engine) => {
  const server = useXServer();
  const db = useMigratedDatabase(engine);
  let fake: FakeXStream;
  const sources: XStreamSource[] = [];
  beforeAll(async () => {
    fake = await new FakeXStream().listen();
  });
  afterEach(async () => {
    for (const s of sources.splice(0)) await s.stop();
  });
  afterAll(() => fake.close());

  function instance(owner: string, now = () => NOW) {
    const s = new XStreamSource({
      db: db().db,
      bearerToken: TOKEN,
      baseUrl: fake.origin,
      limits: { maxRules: 2, maxRuleLength: 100 },
      now,
      owner,
      tickMs: 20,
      backoff: { networkStepMs: 20 },
    });
    sources.push(s);
    return s;
  }

  it('has one instance hold the connection; the others read what it buffered; another takes over', async () => {
    server.use(fake.passthrough());
    const a = instance('a');
    const b = instance('b');
    a.start();
    await until(() => fake.current !== undefined, 5_000, 'a connection');
    b.start();
    await new Promise((r) => setTimeout(r, 100));
    expect([a.holder, b.holder]).toEqual([true, false]);
    expect(fake.connections).toHaveLength(1);

    fake.deliver({ ...photoTweet, author_id: twitter.id }, [], { users: [twitter] });
    fake.deliver({ ...replyTweet, author_id: twitterDev.id }, [], { users: [twitterDev] });
    await until(
      async () => (await b.tweetsByAuthorsSince([twitter.id, twitterDev.id], '0', 10)).items.length === 2,
    );
    // Oldest first, above the watermark, paged by nextSinceId.
    const first = await b.tweetsByAuthorsSince([twitter.id, twitterDev.id], '0', 1);
    expect(first.items.map((t) => t.id)).toEqual([photoTweet.id]);
    expect(first.nextSinceId).toBe(photoTweet.id);
    const rest = await b.tweetsByAuthorsSince([twitter.id, twitterDev.id], photoTweet.id, 1);
    expect(rest.items.map((t) => t.id)).toEqual([replyTweet.id]);
    expect(rest.nextSinceId).toBeUndefined();
    expect(
      (await b.tweetsByAuthorsSince([twitter.id], '0', 10)).items.map((t) => t.author?.username),
    ).toEqual(['X']);

    await a.stop();
    await until(
      () => b.holder && fake.connections.length === 2 && fake.current !== undefined,
      5_000,
      'the takeover',
    );
    expect(fake.maxOpen).toBe(1);
  });

  it('refuses an account beyond the rule count with a clear error; checks wait while X is not heard', async () => {
    server.use(fake.passthrough());
    fake.rules = [
      { id: '1', value: 'dogs', tag: 'theirs' },
      { id: '2', value: 'cats', tag: 'theirs' },
    ];
    const a = instance('c', () => NOW + 10 * 60_000);
    const err = await a.admitAuthor(twitter.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlatformUnavailableError);
    expect((err as PlatformUnavailableError).code).toBe('x_api_unavailable');
    expect((err as Error).message).toContain(`account ${twitter.id} cannot be watched`);
    expect((err as Error).message).toContain('at most 2 rules (X_API_STREAM_MAX_RULES)');
    expect(fake.rules.map((r) => r.id)).toEqual(['1', '2']);
    // Nobody has heard from X for ten minutes (the other test's holder stopped then, on its clock): the
    // buffer holds posts, but a check reads nothing and its watermark stays where it was.
    expect(await a.serving()).toBe(false);
    expect(await a.tweetsByAuthorsSince([twitter.id], '0', 10)).toEqual({ items: [], nextSinceId: '0' });
    expect(await a.keywordTweetsSince('cats', '5', 10)).toEqual({ items: [], nextSinceId: '5' });
  });

  it('keeps to X’s rule cap for the app when it is lower than the configured limit', async () => {
    server.use(fake.passthrough());
    fake.rules = [{ id: '1', value: 'dogs', tag: 'theirs' }];
    fake.cap = 1;
    try {
      const s = new XStreamSource({
        db: db().db,
        bearerToken: TOKEN,
        baseUrl: fake.origin,
        limits: { maxRules: 10, maxRuleLength: 100 },
        now: () => NOW,
      });
      const err = await s.admitAuthor(twitter.id).catch((e: unknown) => e);
      expect((err as Error).message).toContain("at most 1 rules (X's cap for this app)");
      fake.cap = 2;
      const again = new XStreamSource({
        db: db().db,
        bearerToken: TOKEN,
        baseUrl: fake.origin,
        limits: { maxRules: 10, maxRuleLength: 100 },
        now: () => NOW,
      });
      await again.admitAuthor(twitter.id);
      expect(fake.rules.map((r) => r.value)).toEqual(['dogs', `from:${twitter.id}`]);
    } finally {
      fake.cap = 1000;
    }
  });
});
