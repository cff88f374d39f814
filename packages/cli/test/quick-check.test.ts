import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { operations } from '@xsvc/sdk/contract';
import { describe, expect, it } from 'vitest';
import { passes } from '../src/args/quick-check.js';
import type { OperationCheck, ValueCheck } from '../src/table/check-types.js';
import { checks } from '../src/table/checks.generated.js';
import { renderChecks } from '../src/table/render-checks.js';

const checkOfOp = (op: string): OperationCheck => JSON.parse(checks[op]!) as OperationCheck;

describe('the quick checks generated from the contract', () => {
  it('are the ones the contract generates (run `pnpm generate` when this fails)', () => {
    const committed = readFileSync(join(import.meta.dirname, '../src/table/checks.generated.ts'), 'utf8');
    expect(committed).toBe(renderChecks(operations));
  });

  it('cover every operation, with the query parameters the contract declares', () => {
    expect(Object.keys(checks).sort()).toEqual(operations.map((o) => o.id).sort());
    expect(checkOfOp('searchTweets').queryKeys).toContain('queryType');
  });

  it('express types, required parameters, enums, bounds and patterns', () => {
    const search = checkOfOp('searchTweets').query!;
    expect(passes(search, { q: 'hello' })).toBe(true);
    expect(passes(search, {})).toBe(false);
    expect(passes(search, { q: 'hello', queryType: 'Oldest' })).toBe(false);
    expect(passes(search, { q: 'hello', queryType: 'Top' })).toBe(true);
    expect(passes(search, { q: 'hello', minFaves: 'lots' })).toBe(false);
    const tweet = checkOfOp('createTweet').body!;
    expect(passes(tweet, { account: 'me', text: 'hi' })).toBe(true);
    expect(passes(tweet, { account: 'me', text: '' })).toBe(false);
    expect(passes(tweet, { account: 'me', media: ['1', '2', '3', '4', '5'] })).toBe(false);
    expect(passes(tweet, { account: 'me', reply_to_tweet_id: '12x' })).toBe(false);
  });

  it('each kind of check', () => {
    const cases: [ValueCheck, unknown, boolean][] = [
      [{ t: 'any' }, undefined, true],
      [{ t: 'opt', of: { t: 'str' } }, undefined, true],
      [{ t: 'str' }, undefined, false],
      [{ t: 'nul', of: { t: 'str' } }, null, true],
      [{ t: 'str', min: 2, max: 3 }, 'abcd', false],
      [{ t: 'str', re: [['^a', 'i']] }, 'Abc', true],
      [{ t: 'num', int: true, ge: 1, lt: 10 }, 10, false],
      [{ t: 'num', int: true, ge: 1, lt: 10 }, 1.5, false],
      [{ t: 'num', gt: 0 }, Number.NaN, false],
      [{ t: 'num', gt: 0, le: 1 }, 1, true],
      [{ t: 'bool' }, 'true', false],
      [{ t: 'one', of: ['a', 1] }, 1, true],
      [{ t: 'arr', of: { t: 'num' }, min: 1 }, [], false],
      [{ t: 'obj', props: { a: { t: 'str' } } }, { a: 'x', extra: 1 }, true],
      [{ t: 'obj', props: { a: { t: 'str' } } }, [], false],
      [{ t: 'rec', of: { t: 'bool' } }, { a: true, b: 1 }, false],
      [{ t: 'or', of: [{ t: 'str' }, { t: 'num' }] }, 3, true],
    ];
    for (const [check, value, expected] of cases)
      expect([check, value, passes(check, value)]).toEqual([check, value, expected]);
  });
});
