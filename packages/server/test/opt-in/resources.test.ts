/**
 * The opt-in contract's resources (spec 4.1): under `svc-api-contract: 2026-04-29` every recognised resource
 * carries `object` and a prefixed id (references too), and the prefixed ids work in paths and queries. The
 * snapshot holds one of each resource with its generated parts masked. The SDK with `contract: '2026-04-29'`
 * gets the prefixed ids and hands them back.
 */
import { Xsvc } from '@xsvc/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerAccountId } from '../helpers/server.js';
import { type MonitorTestServer, postTweet, startMonitorServer } from '../monitors/helpers.js';
import { connect } from '../reads/fixtures.js';

const OPT_IN = { 'svc-api-contract': '2026-04-29' };

/** A body with its generated values (ids, times, secrets, hashes) masked, keeping the id prefixes. */
function masked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(masked);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string' && (k === 'id' || k.endsWith('_id'))) {
      const prefix = /^([a-z]+_)/.exec(v)?.[1] ?? '';
      out[k] = `${prefix}<id>`;
    } else if (typeof v === 'number' && k.endsWith('_at')) out[k] = '<unix>';
    else if (['secret', 'full_key', 'prefix', 'seed_hash', 'url', 'tweet_url'].includes(k)) out[k] = `<${k}>`;
    else out[k] = masked(v);
  }
  return out;
}

describe('resources under the opt-in contract', () => {
  let t: MonitorTestServer;
  let ownerId = '';
  const ids: Record<string, string> = {};
  const opt = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    t.request(method, url, { headers: OPT_IN, ...(body !== undefined && { body }) });

  beforeAll(async () => {
    t = await startMonitorServer('sqlite');
    ownerId = await ownerAccountId(t.server);
    await connect(t, ownerId, 'jack');
  });
  afterAll(() => t?.close());

  it('marks every recognised resource with object and a prefixed id', async () => {
    const snap: Record<string, unknown> = {};
    const monitor = await opt('POST', '/api/v1/monitors', { username: 'jack', eventTypes: ['tweet.new'] });
    expect(monitor.status).toBe(201);
    expect(monitor.body).toMatchObject({ object: 'monitor', id: expect.stringMatching(/^mon_\d+$/) });
    ids.monitor = monitor.body.id;
    snap.monitor = monitor.body;

    const keyword = await opt('POST', '/api/v1/monitors/keywords', {
      query: 'giveaway',
      eventTypes: ['tweet.new'],
    });
    expect(keyword.body).toMatchObject({ object: 'keyword_monitor', id: expect.stringMatching(/^kwm_/) });
    snap.keyword_monitor = keyword.body;

    await postTweet(t, { author: 'jack', text: 'opt-in contract hello' });
    await t.check();
    const events = await opt('GET', `/api/v1/events?monitorId=${ids.monitor}`);
    expect(events.status).toBe(200);
    const event = events.body.events[0];
    expect(event).toMatchObject({
      object: 'event',
      id: expect.stringMatching(/^evt_/),
      monitor_id: ids.monitor,
    });
    snap.event = event;
    expect((await opt('GET', `/api/v1/events/${event.id}`)).body.id).toBe(event.id);

    // A webhook as creating one stores it (its URL must resolve, which this test server does not do).
    const now = t.clock.now();
    await t.server.services.database.db
      .insertInto('webhooks')
      .values({
        id: String(now * 1000),
        account_id: ownerId,
        url: 'https://hooks.example.com/xsvc',
        event_types: JSON.stringify(['tweet.new']),
        secret: 'ab'.repeat(32),
        is_active: 1,
        health: 'active',
        consecutive_failures: 0,
        failure_hard_cap: 10,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const webhook = { body: { id: `wh_${now * 1000}` } };
    const listed = await opt('GET', '/api/v1/webhooks');
    expect(listed.body.webhooks[0]).toMatchObject({ object: 'webhook', id: webhook.body.id });
    snap.webhook = listed.body.webhooks[0];
    const deliveries = await opt('GET', `/api/v1/webhooks/${webhook.body.id}/deliveries`);
    expect(deliveries.status).toBe(200);

    const extraction = await opt('POST', '/api/v1/extractions', {
      toolType: 'follower_explorer',
      targetUsername: 'jack',
    });
    expect(extraction.body).toMatchObject({
      object: 'extraction',
      id: expect.stringMatching(/^ext_[0-9a-f-]{36}$/),
    });
    snap.extraction = extraction.body;
    const job = await opt('GET', `/api/v1/extractions/${extraction.body.id}`);
    expect(job.body.job).toMatchObject({ object: 'extraction', id: extraction.body.id });

    const tweet = await postTweet(t, { author: 'jack', text: 'Giveaway! reply to enter' });
    const draw = await opt('POST', '/api/v1/draws', { tweetUrl: `https://x.com/jack/status/${tweet.id}` });
    expect(draw.status).toBe(201);
    expect(draw.body).toMatchObject({ object: 'draw', id: expect.stringMatching(/^drw_/) });
    snap.draw = draw.body;
    const got = await opt('GET', `/api/v1/draws/${draw.body.id}`);
    expect(got.body.draw).toMatchObject({ object: 'draw', id: draw.body.id });

    const key = await opt('POST', '/api/v1/api-keys', { name: 'opt-in' });
    expect(key.body).toMatchObject({ object: 'api_key', id: expect.stringMatching(/^key_/) });
    snap.api_key = key.body;
    expect((await opt('DELETE', `/api/v1/api-keys/${key.body.id}`)).status).toBe(200);

    const accounts = await opt('GET', '/api/v1/x/accounts');
    expect(accounts.body.accounts[0]).toMatchObject({
      object: 'x_account',
      id: expect.stringMatching(/^xacct_/),
    });
    snap.x_account = accounts.body.accounts[0];

    expect(masked(snap)).toMatchSnapshot();
  });

  it('accepts prefixed and plain ids alike, and keeps the default contract unprefixed', async () => {
    const plain = ids.monitor!.slice('mon_'.length);
    expect((await opt('GET', `/api/v1/monitors/${ids.monitor}`)).body.id).toBe(ids.monitor);
    expect((await opt('GET', `/api/v1/monitors/${plain}`)).body.id).toBe(ids.monitor);
    const dflt = await t.request('GET', `/api/v1/monitors/${plain}`);
    expect(dflt.body.id).toBe(plain);
    expect(dflt.body).not.toHaveProperty('object');
    // A prefixed id means nothing under the default contract.
    expect((await t.request('GET', `/api/v1/monitors/${ids.monitor}`)).body.error).toBe('invalid_id');
    // The prefix of another kind is no id of this one.
    expect((await opt('GET', `/api/v1/monitors/wh_${plain}`)).body.error).toMatchObject({
      code: 'invalid_id',
    });
  });

  it('round-trips prefixed ids through the SDK', async () => {
    const url = await t.server.app.listen({ port: 0, host: '127.0.0.1' });
    const sdk = new Xsvc({ baseUrl: url, apiKey: t.key, contract: '2026-04-29', maxRetries: 0 });
    const monitor = await sdk.monitors.get(ids.monitor!);
    expect(monitor.id).toBe(ids.monitor);
    const updated = await sdk.monitors.update(monitor.id, { eventTypes: ['tweet.reply'] });
    expect(updated).toMatchObject({ id: ids.monitor, eventTypes: ['tweet.reply'] });
    const { items } = await sdk.draws.list();
    expect(items[0]?.id).toMatch(/^drw_/);
    const draw = await sdk.draws.get(items[0]!.id);
    expect(draw.draw.id).toBe(items[0]!.id);
  });
});
