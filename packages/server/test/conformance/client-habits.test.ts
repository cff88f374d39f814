/**
 * Every operation called the way generated clients of the service call it, answering as it does without
 * those habits: `Content-Type: application/json` on every request, bodiless ones included (the official
 * Python SDK); a guest key in `x-api-key` (the reference lists that header on the guest-wallet operations);
 * and the reference's multi-target extraction fields (`targetUsernames`, `targetTweetIds`, `targets`, …).
 * Two servers with the same seed take the same calls, one plainly and one with the habits.
 */
import { randomUUID } from 'node:crypto';
import { type AnyOperation, operations } from '@xsvc/sdk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Listening, listen } from './listening.js';

const KEY = `svc_${'5d'.repeat(32)}`;
const JSON_TYPE = { 'content-type': 'application/json' };

let plain: Listening;
let habits: Listening;

beforeAll(async () => {
  [plain, habits] = await Promise.all([listen(KEY), listen(KEY)]);
});
afterAll(async () => Promise.all([plain?.close(), habits?.close()]));

/** An answer reduced to what must not depend on the habits: status and error code. */
async function answer(
  at: Listening,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
) {
  const r = await fetch(`${at.base}${path}`, {
    method,
    redirect: 'manual',
    headers: { 'x-api-key': at.key, ...headers },
    ...(body !== undefined && { body }),
  });
  const text = await r.text();
  let error: unknown;
  try {
    error = (JSON.parse(text) as { error?: unknown }).error;
  } catch {
    /* not JSON */
  }
  return { status: r.status, error };
}

/** The operation's path with placeholder values (ids that exist in the seed where one is needed). */
function pathOf(op: AnyOperation): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'id' ? '20' : 'jack'));
}

describe('request habits of generated clients', () => {
  it('answers every bodiless operation alike with and without Content-Type: application/json', async () => {
    const bodiless = (operations as readonly AnyOperation[]).filter(
      (op) => !op.body && op.path.startsWith('/api/v1/') && op.method !== 'GET',
    );
    const gets = (operations as readonly AnyOperation[]).filter(
      (op) => op.method === 'GET' && op.path.startsWith('/api/v1/'),
    );
    expect(bodiless.length).toBeGreaterThanOrEqual(10);
    const differences: string[] = [];
    const statuses = new Set<number>();
    for (const op of [...bodiless, ...gets]) {
      const path = pathOf(op);
      const a = await answer(plain, op.method, path, {});
      // The Python SDK's habit: the JSON content type, and no body (or an empty one).
      const b = await answer(habits, op.method, path, JSON_TYPE);
      statuses.add(a.status);
      if (a.status !== b.status || a.error !== b.error)
        differences.push(`${op.id}: ${a.status} ${a.error} vs ${b.status} ${b.error}`);
      expect(b.error, op.id).not.toBe('invalid_json');
    }
    expect(differences).toEqual([]);
    expect([...statuses].some((s) => s >= 200 && s < 300)).toBe(true);
  });

  it('serves the bodiless writes on real resources with the JSON content type and an empty body', async () => {
    const h = { 'x-api-key': habits.key, ...JSON_TYPE };
    const post = (path: string, body: unknown) =>
      fetch(`${habits.base}${path}`, { method: 'POST', headers: h, body: JSON.stringify(body) });
    const monitor = (await (
      await post('/api/v1/monitors', { username: 'jack', eventTypes: ['tweet.new'] })
    ).json()) as { id: string };
    const keyword = (await (
      await post('/api/v1/monitors/keywords', { query: 'hello', eventTypes: ['tweet.new'] })
    ).json()) as { id: string };
    const draft = (await (await post('/api/v1/drafts', { text: 'draft' })).json()) as { id: string };
    for (const path of [
      `/api/v1/monitors/${monitor.id}`,
      `/api/v1/monitors/keywords/${keyword.id}`,
      `/api/v1/drafts/${draft.id}`,
    ]) {
      for (const body of [undefined, '']) {
        const r = await fetch(`${habits.base}${path}`, {
          method: 'DELETE',
          headers: h,
          ...(body !== undefined && { body }),
        });
        // The first delete succeeds; the second finds nothing (never 400 invalid_json).
        expect([200, 204, 404], `${path} ${JSON.stringify(body)}`).toContain(r.status);
        if (body === undefined) expect(r.status, path).toBeLessThan(300);
      }
    }
  });

  it('accepts a guest key in x-api-key for the guest-wallet status and top-up, as in Authorization', async () => {
    const made = await fetch(`${habits.base}/api/v1/guest-wallets`, {
      method: 'POST',
      headers: { ...JSON_TYPE, 'idempotency-key': randomUUID() },
      body: JSON.stringify({ amount_minor: 1000, currency: 'usd' }),
    });
    expect(made.status).toBe(201);
    const { api_key, wallet_id } = (await made.json()) as { api_key: string; wallet_id: string };
    expect(api_key).toMatch(/^sgk_/);
    const status = async (headers: Record<string, string>) => {
      const r = await fetch(`${habits.base}/api/v1/guest-wallets/status`, { headers });
      return { status: r.status, body: (await r.json()) as { wallet_id?: string } };
    };
    const bearer = await status({ authorization: `Bearer ${api_key}` });
    const header = await status({ 'x-api-key': api_key, ...JSON_TYPE });
    expect(header).toEqual(bearer);
    expect(header.body.wallet_id).toBe(wallet_id);
    const topUp = await fetch(`${habits.base}/api/v1/guest-wallets/topups`, {
      method: 'POST',
      headers: { 'x-api-key': api_key, ...JSON_TYPE, 'idempotency-key': randomUUID() },
      body: JSON.stringify({ amount_minor: 1000, currency: 'usd' }),
    });
    expect(topUp.status).toBe(201);
    expect(((await topUp.json()) as { wallet_id: string }).wallet_id).toBe(wallet_id);
  });

  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    [
      'targetUsernames',
      { toolType: 'follower_explorer', targetUsername: 'jack' },
      { toolType: 'follower_explorer', targetUsernames: ['jack'] },
    ],
    [
      'targetTweetIds',
      { toolType: 'reply_extractor', targetTweetId: '20' },
      { toolType: 'reply_extractor', targetTweetIds: ['20'] },
    ],
    [
      'searchQueries',
      { toolType: 'tweet_search_extractor', searchQuery: 'hello' },
      { toolType: 'tweet_search_extractor', searchQueries: ['hello'] },
    ],
    [
      'targets',
      { toolType: 'follower_explorer', targetUsername: 'jack' },
      { toolType: 'follower_explorer', targets: ['@jack', { kind: 'profile', value: 'jack' }] },
    ],
    [
      'relationTargets',
      { toolType: 'following_explorer', targetUsername: 'jack' },
      { toolType: 'following_explorer', relationTargets: [{ relation: 'following', value: 'jack' }] },
    ],
  ])('estimates and creates an extraction named by %s as by the single field', async (_, single, multi) => {
    const call = async (path: string, body: unknown) => {
      const r = await fetch(`${habits.base}${path}`, {
        method: 'POST',
        headers: { 'x-api-key': habits.key, ...JSON_TYPE },
        body: JSON.stringify(body),
      });
      return { status: r.status, body: (await r.json()) as Record<string, unknown> };
    };
    const one = await call('/api/v1/extractions/estimate', single);
    const many = await call('/api/v1/extractions/estimate', multi);
    expect(one.status).toBe(200);
    // The jobs the earlier cases created are still running and charging this account, so the balance may
    // move between the two estimates; everything else must be the same.
    const { creditsAvailable: before, ...oneRest } = one.body;
    const { creditsAvailable: after, ...manyRest } = many.body;
    expect({ status: many.status, body: manyRest }).toEqual({ status: one.status, body: oneRest });
    expect(BigInt(String(after))).toBeLessThanOrEqual(BigInt(String(before)));
    const created = await call('/api/v1/extractions', multi);
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    expect(created.body).toMatchObject({ toolType: multi.toolType, status: 'running' });
  });

  it('checks every target of a job on several targets: one that does not exist is 404 user_not_found', async () => {
    const r = await fetch(`${habits.base}/api/v1/extractions/estimate`, {
      method: 'POST',
      headers: { 'x-api-key': habits.key, ...JSON_TYPE },
      body: JSON.stringify({ toolType: 'follower_explorer', targetUsernames: ['jack', 'no_such_user_zq'] }),
    });
    expect(r.status).toBe(404);
    expect(await r.json()).toMatchObject({ error: 'user_not_found' });
  });
});
