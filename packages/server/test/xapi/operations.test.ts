import { readFileSync } from 'node:fs';
import { Client } from '@xdevplatform/xdk';
import { type AnyOperation, operations } from '@xsvc/sdk/contract';
import { describe, expect, it } from 'vitest';
import { REFERENCE } from '../../../sdk/test/contract/reference-operations.js';
import type { WriteCommand } from '../../src/core/platform/account-writes.js';
import { type Platform, PlatformUnavailableError } from '../../src/core/platform/platform.js';
import {
  BEYOND_REFERENCE,
  OUTSIDE_X_DESCRIPTION,
  X_CALLS,
  XAPI_OPERATIONS,
  type XapiOperation,
  type XRequest,
} from '../../src/platform/xapi/operations.js';
import { noEndpointRefusal } from '../../src/platform/xapi/writes.js';
import xFactsTable from './fixtures/x-api-facts.json' with { type: 'json' };
import { pageOf, platform, rejection, seen, useXServer } from './helpers.js';

// No handler: a refused operation that sent anything would fail with an unhandled request.
useXServer();

const table = XAPI_OPERATIONS as Record<string, XapiOperation>;
const ops = operations as readonly AnyOperation[];
const facts = xFactsTable.operations as { method: string; path: string; tokens: { kind: string }[] }[];
const factOf = (request: XRequest) => facts.find((f) => `${f.method} ${f.path}` === request);

describe('the xapi operations table (docs/guides/xapi.md) covers the contract', () => {
  it('has one record per operation of the contract, no more, no fewer', () => {
    expect(Object.keys(table).sort()).toEqual(ops.map((o) => o.id).sort());
  });

  it('splits the 127 operations of the published reference from the ones beyond it', () => {
    const reference = new Set(REFERENCE.map(([id]) => id));
    expect(reference.size).toBe(127);
    expect(BEYOND_REFERENCE.filter((id) => reference.has(id))).toEqual([]);
    expect(
      Object.keys(table)
        .filter((id) => !reference.has(id))
        .sort(),
    ).toEqual([...BEYOND_REFERENCE].sort());
  });

  it('names X requests for what calls X and none for the rest, and the refusal of what is refused', () => {
    for (const [id, op] of Object.entries(table)) {
      if (op.xapi === 'own-data' || op.xapi === 'refused') expect(op.x ?? [], id).toEqual([]);
      else expect(op.x?.length, id).toBeGreaterThan(0);
      expect(op.refusal !== undefined, id).toBe(op.xapi === 'refused');
      expect(op.note.length, id).toBeGreaterThan(5);
    }
  });
});

describe('the X requests it names are X’s, made the way it says', () => {
  it('every request of an operation is one the platform makes (X_CALLS), and every call serves an operation', () => {
    const made = new Set(X_CALLS.map((c) => c.request));
    const used = new Set(Object.values(table).flatMap((op) => op.x ?? []));
    expect([...used].filter((r) => !made.has(r))).toEqual([]);
    expect([...made].filter((r) => !used.has(r))).toEqual([]);
  });

  it('every call is in X’s facts table and takes the token it is sent with', () => {
    for (const call of X_CALLS) {
      const fact = factOf(call.request);
      if (OUTSIDE_X_DESCRIPTION.includes(call.request)) {
        expect(fact, call.request).toBeUndefined();
        expect(call.token, call.request).toBe('client');
        continue;
      }
      expect(fact, call.request).toBeDefined();
      const kinds = fact?.tokens.map((t) => t.kind) ?? [];
      expect(kinds, `${call.request} with the ${call.token} token`).toContain(
        call.token === 'app' ? 'BearerToken' : 'OAuth2UserToken',
      );
    }
  });

  it('an x-read operation needs only the app token; a user-token one needs an account’s', () => {
    const appCalls = new Set(X_CALLS.filter((c) => c.token === 'app').map((c) => c.request));
    for (const [id, op] of Object.entries(table)) {
      if (op.xapi === 'x-read')
        expect(
          (op.x ?? []).filter((r) => !appCalls.has(r)),
          id,
        ).toEqual([]);
      if (op.xapi === 'user-token') {
        const userOnly = (op.x ?? []).filter((r) =>
          X_CALLS.some((c) => c.request === r && c.token === 'user'),
        );
        expect(userOnly.length, id).toBeGreaterThan(0);
      }
    }
  });

  const xdk = new Client({ bearerToken: 'unused' }) as unknown as Record<string, Record<string, unknown>>;
  const source = (file: string) =>
    readFileSync(new URL(`../../src/platform/xapi/${file}`, import.meta.url), 'utf8');

  it('each call is made in the file it names: the xdk method called, or the path written', () => {
    for (const call of X_CALLS) {
      const text = source(call.file);
      if (call.sdk) {
        const [group, method] = call.sdk.split('.') as [string, string];
        expect(typeof xdk[group]?.[method], `xdk has ${call.sdk}`).toBe('function');
      }
      if (call.via === 'xdk') {
        expect(text, `${call.file} calls ${call.sdk}`).toContain(`.${call.sdk}(`);
        continue;
      }
      const template = call.code ?? call.request.slice(call.request.indexOf(' ') + 1);
      const pattern = new RegExp(
        `${template
          .split(/\{\w+\}/)
          .map((s) => s.replace(/[.*+?^$()|[\]\\/]/g, '\\$&'))
          .join('\\$\\{[^}]+\\}')}[\`']`,
      );
      expect(text, `${call.file} requests ${call.request}`).toMatch(pattern);
    }
  });
});

describe('what the table says is refused is refused, with nothing sent', () => {
  const page = pageOf(20);
  /** The platform read of each operation the table says xapi refuses with `x_api_unavailable`. */
  const reads: Record<string, (p: Platform) => Promise<unknown>> = {
    getFollowersYouKnow: (p) => p.followersYouKnow('1', '2', page),
    getUserVerifiedFollowers: (p) => p.verifiedFollowers('1', page),
    getCommunityMembers: (p) => p.communityMembers('1', 'member', page),
    getCommunityModerators: (p) => p.communityMembers('1', 'moderator', page),
    getCommunityTweets: (p) => p.communityTweets('1', page),
    searchCommunities: (p) => p.searchCommunityTweets('q', '1', page),
    getAllCommunityTweets: (p) => p.searchCommunityTweets('q', undefined, page),
    getJob: (p) => p.job('1'),
    getNotifications: (p) => p.notifications('1', page),
  };
  const refused = (code: string) =>
    Object.entries(table)
      .filter(([, op]) => op.refusal === code)
      .map(([id]) => id)
      .sort();

  it('the reads refused with x_api_unavailable', async () => {
    expect(refused('x_api_unavailable')).toEqual(Object.keys(reads).sort());
    for (const [id, call] of Object.entries(reads)) {
      const err = await rejection(call(platform()));
      expect(err, id).toBeInstanceOf(PlatformUnavailableError);
      expect(err.code, id).toBe('x_api_unavailable');
    }
    expect(seen).toHaveLength(0);
  });

  it('the writes refused with x_rejected: X API v2 has no endpoint for them', () => {
    const writes = ops.filter((o) => o.writeAction);
    const rejected = writes.filter((o) => noEndpointRefusal(o.writeAction as WriteCommand['action']));
    expect(rejected.map((o) => o.id).sort()).toEqual(refused('x_rejected'));
    for (const o of rejected) {
      const outcome = noEndpointRefusal(o.writeAction as WriteCommand['action']);
      expect(outcome && !outcome.ok ? outcome.code : undefined, o.id).toBe('x_rejected');
    }
  });

  it('the challenge submission, whose 409 connect.test.ts checks, is in the contract’s errors', () => {
    expect(refused('connection_challenge_inactive')).toEqual(['submitXAccountConnectionChallenge']);
    const op = ops.find((o) => o.id === 'submitXAccountConnectionChallenge');
    expect(op?.errors).toContain('connection_challenge_inactive');
  });
});
