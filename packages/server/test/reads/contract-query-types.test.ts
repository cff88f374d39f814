/**
 * The server's query types come from the contract (`@xsvc/sdk/contract`): a field the contract does not
 * define is a type error where the server reads it, so a renamed filter cannot silently stop filtering.
 * `pnpm typecheck` checks the `@ts-expect-error` lines; vitest runs the runtime half.
 */
import type { BodyOf, QueryOf } from '@xsvc/sdk/contract';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type TweetFilterParams,
  toTweetFilters,
  type UserFilterParams,
} from '../../src/core/reads/filters.js';
import type { ExportFilters } from '../../src/features/extractions/export.js';

describe('server query types derived from the contract', () => {
  it('tweet filters: the contract fields, and nothing else', () => {
    expectTypeOf<TweetFilterParams>().toHaveProperty('fromUser');
    expectTypeOf<TweetFilterParams['minFaves']>().toEqualTypeOf<number | undefined>();
    // A field the contract does not define (a renamed `fromUser`) does not compile.
    // @ts-expect-error `fromUsername` is not a contract filter
    const stale: TweetFilterParams = { fromUsername: 'jack' };
    // @ts-expect-error reading a field the contract lacks is a type error too
    const read = (q: TweetFilterParams) => q.fromUsername;
    expect(toTweetFilters({ fromUser: 'jack' }, 0)).toBeTypeOf('object');
    expect([stale, read]).toHaveLength(2);
  });

  it('user and export filters, and operation queries and bodies', () => {
    expectTypeOf<UserFilterParams>().toHaveProperty('minFollowers');
    expectTypeOf<ExportFilters>().toHaveProperty('minFollowers');
    expectTypeOf<ExportFilters>().not.toHaveProperty('format');
    expectTypeOf<QueryOf<'exportExtraction'>['format']>().toEqualTypeOf<
      'csv' | 'json' | 'md' | 'md-document' | 'pdf' | 'txt' | 'xlsx'
    >();
    expectTypeOf<BodyOf<'createTicket'>>().toHaveProperty('subject');
    // @ts-expect-error `minFollowerCount` is not a query field of exportExtraction
    const wrong: ExportFilters = { minFollowerCount: 1 };
    expect(wrong).toBeDefined();
  });
});
