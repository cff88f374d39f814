import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Platform } from '../../src/core/platform/platform.js';
import { idBefore } from '../../src/features/monitors/watermark.js';
import { ENGINES } from '../helpers/server.js';
import {
  createSimUser,
  type MonitorTestServer,
  patchSimUser,
  postTweet,
  startMonitorServer,
} from './helpers.js';

/** Ids that name no account, to make an author list long enough for the read-by-time path. */
const padding = Array.from({ length: 300 }, (_, i) => String(1_000_000 + i));

describe.each(ENGINES)('the simulated platform’s batched reads for monitors (%s)', (engine) => {
  let t: MonitorTestServer;
  let platform: Platform;
  let ids: string[];
  let since: string;
  beforeAll(async () => {
    t = await startMonitorServer(engine);
    platform = t.server.services.platform;
    ids = [];
    for (const u of ['pr_a', 'pr_b', 'pr_hidden']) ids.push((await createSimUser(t, { username: u })).id);
    since = idBefore(t.clock.now());
  });
  afterAll(async () => t?.close());

  it('reads the new tweets of a few or of many authors alike, oldest first, visible ones only', async () => {
    const a1 = await postTweet(t, { author: 'pr_a', text: 'one' });
    const b1 = await postTweet(t, { author: 'pr_b', text: 'two' });
    await postTweet(t, { author: 'pr_hidden', text: 'hidden soon' });
    const gone = await postTweet(t, { author: 'pr_a', text: 'deleted' });
    await t.request('DELETE', `/sim/tweets/${gone.id}`);
    await patchSimUser(t, 'pr_hidden', { protected: true });
    const a2 = await postTweet(t, { author: 'pr_a', text: 'three' });
    const few = await platform.tweetsByAuthorsSince(ids, since, 100);
    const many = await platform.tweetsByAuthorsSince([...padding, ...ids], since, 100);
    expect(few.items.map((x) => x.id)).toEqual([a1.id, b1.id, a2.id]);
    expect(many.items.map((x) => x.id)).toEqual([a1.id, b1.id, a2.id]);
    expect(few.nextSinceId).toBeUndefined();
    expect(many.nextSinceId).toBeUndefined();
    const after = await platform.tweetsByAuthorsSince(ids, b1.id, 100);
    expect(after.items.map((x) => x.id)).toEqual([a2.id]);
  });

  it('pages at the limit with nextSinceId, by rows read', async () => {
    const whole = (await platform.tweetsByAuthorsSince(ids, since, 100)).items.map((x) => x.id);
    const first = await platform.tweetsByAuthorsSince(ids, since, 2);
    expect(first.items.map((x) => x.id)).toEqual(whole.slice(0, 2));
    expect(first.nextSinceId).toBe(whole[1]);
    // Reading by time, a page holds the rows read (other authors' too): paging on collects the same.
    const paged: string[] = [];
    let from: string | undefined = since;
    let pages = 0;
    while (from !== undefined) {
      const page = await platform.tweetsByAuthorsSince([...padding, ...ids], from, 2);
      paged.push(...page.items.map((x) => x.id));
      from = page.nextSinceId;
      pages++;
    }
    expect(paged).toEqual(whole);
    expect(pages).toBeGreaterThan(2);
  });

  it('answers the newest tweet id of an account, hidden or deleted ones included', async () => {
    const last = await postTweet(t, { author: 'pr_b', text: 'newest' });
    await t.request('DELETE', `/sim/tweets/${last.id}`);
    expect(await platform.newestTweetId(ids[1] as string)).toBe(last.id);
    expect(await platform.newestTweetId('424242')).toBeUndefined();
  });

  it('stamps profiles with a conditional read: nothing comes back until one changes', async () => {
    const first = await platform.profileStamps([...ids, '424242']);
    expect([...(first.stamps?.keys() ?? [])].sort()).toEqual([...ids].sort());
    const same = await platform.profileStamps([...ids, '424242'], first.digest);
    expect(same).toEqual({ digest: first.digest });
    await patchSimUser(t, 'pr_b', { name: 'Renamed B' });
    const changed = await platform.profileStamps([...ids, '424242'], first.digest);
    expect(changed.digest).not.toBe(first.digest);
    expect(changed.stamps?.get(ids[1] as string)).not.toBe(first.stamps?.get(ids[1] as string));
    expect(changed.stamps?.get(ids[0] as string)).toBe(first.stamps?.get(ids[0] as string));
    await t.server.services.database.db
      .deleteFrom('sim_users')
      .where('id', '=', ids[0] as string)
      .execute();
    const deleted = await platform.profileStamps([...ids, '424242'], changed.digest);
    expect(deleted.stamps?.has(ids[0] as string)).toBe(false);
  });
});
