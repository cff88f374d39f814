import { describe, expect, it } from 'vitest';
import { displayTextRange, parseEntities } from '../../src/platform/simulated/entities.js';
import { SnowflakeIds } from '../../src/platform/simulated/ids.js';
import {
  compareIds,
  decodeCursor,
  decodeOffsetCursor,
  encodeCursor,
  encodeOffsetCursor,
  InvalidCursorError,
  parseJobRef,
  parseTweetRef,
  parseUserRef,
  snowflake,
  snowflakeTime,
} from '../../src/platform/simulated/index.js';
import { Prng } from '../../src/platform/simulated/prng.js';
import { filterClauses, parseSearchQuery } from '../../src/platform/simulated/search-query.js';

describe('prng', () => {
  it('gives the same stream for the same seed and another for another seed', () => {
    const a = new Prng('seed');
    const b = new Prng('seed');
    const c = new Prng('other');
    const xs = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(xs);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(xs);
    for (const x of xs) expect(x >= 0 && x < 1).toBe(true);
  });

  it('draws integers in range and heavy tails within their cap', () => {
    const p = new Prng(1);
    for (let i = 0; i < 1000; i++) {
      const n = p.int(3, 7);
      expect(n >= 3 && n <= 7).toBe(true);
      const t = p.pareto(2, 1.2, 500);
      expect(t >= 2 && t <= 500).toBe(true);
    }
    expect(new Set(p.sample([1, 2, 3, 4, 5], 5)).size).toBe(5);
  });
});

describe('ids', () => {
  it('encodes time in snowflakes and issues strictly increasing ids', () => {
    const t = Date.UTC(2026, 0, 1);
    expect(snowflakeTime(snowflake(t, 5))).toBe(t);
    const ids = new SnowflakeIds();
    const issued = [ids.next(t), ids.next(t), ids.next(t - 1000), ids.next(t + 1)];
    for (let i = 1; i < issued.length; i++)
      expect(compareIds(issued[i - 1] as string, issued[i] as string)).toBeLessThan(0);
    ids.observe(snowflake(t + 10_000, 3));
    expect(compareIds(ids.next(t), snowflake(t + 10_000, 3))).toBeGreaterThan(0);
    expect(compareIds('20', '1000000000000000000')).toBeLessThan(0);
  });
});

describe('cursors', () => {
  it('round-trips keysets and offsets, scoped to their listing', () => {
    const c = encodeCursor('users:followers', [1_700_000_000_000, '12345']);
    expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor('users:followers', c)).toEqual([1_700_000_000_000, '12345']);
    expect(decodeCursor('users:followers', undefined)).toBeUndefined();
    expect(decodeCursor('users:followers', '')).toBeUndefined();
    expect(decodeOffsetCursor('x', encodeOffsetCursor('x', 40))).toBe(40);
    expect(() => decodeCursor('tweets:search:latest', c)).toThrow(InvalidCursorError);
  });

  it('rejects cursors it did not issue with a typed invalid_input error', () => {
    for (const bad of [
      'not a cursor!',
      'abc',
      Buffer.from('{"s":"x","k":[1,"a"]}').toString('base64url'),
      'x'.repeat(600),
    ]) {
      const attempt = () => decodeCursor('x', bad);
      expect(attempt).toThrow(InvalidCursorError);
      try {
        attempt();
      } catch (err) {
        expect((err as InvalidCursorError).code).toBe('invalid_input');
      }
    }
  });
});

describe('references', () => {
  it('reads user ids, usernames and profile URLs, encoded or not', () => {
    expect(parseUserRef('12')).toEqual({ id: '12', username: '12' });
    expect(parseUserRef('@Jack')).toEqual({ username: 'jack' });
    expect(parseUserRef('jack')).toEqual({ username: 'jack' });
    expect(parseUserRef('https://x.com/Jack')).toEqual({ username: 'jack' });
    expect(parseUserRef('https://twitter.com/jack/')).toEqual({ username: 'jack' });
    expect(parseUserRef('https%3A%2F%2Fx.com%2Fjack%3Fs%3D20')).toEqual({ username: 'jack' });
    expect(parseUserRef('https://x.com/i/user/12')).toEqual({ id: '12' });
    expect(parseUserRef('not a user!')).toBeUndefined();
    expect(parseUserRef('waytoolongusername123')).toBeUndefined();
  });

  it('reads tweet and job references', () => {
    expect(parseTweetRef('1790000000000000000')).toBe('1790000000000000000');
    expect(parseTweetRef('https://x.com/jack/status/20?s=1')).toBe('20');
    expect(parseTweetRef(encodeURIComponent('https://twitter.com/i/web/status/21'))).toBe('21');
    expect(parseTweetRef('abc')).toBeUndefined();
    expect(parseJobRef('https://x.com/jobs/123')).toBe('123');
    expect(parseJobRef('nope')).toBeUndefined();
  });
});

describe('search syntax', () => {
  it('parses operators, phrases, exclusions and OR groups', () => {
    const q = parseSearchQuery(
      'coffee "hello world" -tea from:Jack to:@xsvc_demo @newsroom #AI $BTC lang:es filter:media -filter:replies ' +
        'min_faves:10 since:2026-01-01 until:2026-02-01 cats OR dogs',
    );
    const kinds = q.map((clause) => clause.map((t) => `${t.negated ? '-' : ''}${t.atom.kind}`).join('|'));
    expect(kinds).toEqual([
      'word',
      'phrase',
      '-word',
      'from',
      'to',
      'mention',
      'hashtag',
      'cashtag',
      'lang',
      'filter',
      '-filter',
      'min',
      'since',
      'until',
      'word|word',
    ]);
    expect(q[3]?.[0]?.atom).toEqual({ kind: 'from', value: 'jack' });
    expect(q[12]?.[0]?.atom).toEqual({ kind: 'since', value: Date.UTC(2026, 0, 1) });
  });

  it('searches malformed operators as words and turns filters into clauses', () => {
    expect(parseSearchQuery('min_faves:lots')[0]?.[0]?.atom).toEqual({
      kind: 'word',
      value: 'min_faves:lots',
    });
    const clauses = filterClauses({
      fromUser: '@Jack',
      replies: 'exclude',
      anyWords: ['a', 'b'],
      sinceTime: 1_700_000_000,
    });
    expect(clauses).toHaveLength(4);
    expect(clauses.find((c) => c[0]?.atom.kind === 'since')?.[0]?.atom).toEqual({
      kind: 'since',
      value: 1_700_000_000_000,
    });
  });
});

describe('entities', () => {
  it('finds mentions, hashtags, cashtags and links once each', () => {
    const e = parseEntities('@jack hi @Jack! #AI and #ai $BTC https://t.co/abc, see https://example.com/x.', {
      userId: (n) => (n === 'jack' ? '12' : undefined),
      expand: (u) =>
        u === 'https://t.co/abc' ? 'https://blog.example.com/a/very/long/path/indeed' : undefined,
    });
    expect(e.mentions).toEqual([{ id: '12', username: 'jack' }]);
    expect(e.hashtags).toEqual([{ text: 'AI' }]);
    expect(e.cashtags).toEqual([{ text: 'BTC' }]);
    expect(e.urls?.map((u) => u.expandedUrl)).toEqual([
      'https://blog.example.com/a/very/long/path/indeed',
      'https://example.com/x',
    ]);
    expect(e.urls?.[0]?.displayUrl).toBe('blog.example.com/a/very/…');
    expect(parseEntities('nothing here')).toEqual({});
    expect(displayTextRange('@a @b hello')).toEqual([6, 11]);
  });
});
