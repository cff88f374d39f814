/**
 * Extraction jobs on several targets (reference `targetUsernames`, `dedupeAcrossTargets`, `dedupeMode`) on
 * both engines: the targets are read one after the other, each result tagged with its target and charged
 * 1 credit; an item two targets share is kept once (`first`), once per target (`none`) or once listing
 * both (`merge`); the estimate sums the targets; the export has the target column; a job interrupted in
 * its second target resumes there after a restart, each result once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, testDatabase } from '../helpers/server.js';
import { parseCsv } from './files.js';
import { type FeatureServer, spentOn, startServer } from './helpers.js';

const OTHER = 'mt_other';

interface Result {
  xUserId: string;
  target?: string;
  targets?: string[];
}

/** Every follower id of `username`, as the platform lists them. */
async function followerIds(t: FeatureServer, username: string): Promise<string[]> {
  const { platform } = t.server.services;
  const user = await platform.getUser(username);
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await platform.followers(user?.id ?? '', {}, { pageSize: 100, ...(cursor && { cursor }) });
    ids.push(...page.items.map((u) => u.id));
    cursor = page.nextCursor;
  } while (cursor);
  return ids;
}

async function sim(t: FeatureServer, url: string, body: unknown): Promise<void> {
  const r = await t.request('POST', url, { body });
  if (r.status >= 300) throw new Error(`${url}: ${r.status} ${JSON.stringify(r.body)}`);
}

/**
 * A second account, followed by two of jack's followers (shared items) and by five accounts of its own
 * (enough for several pages of 2).
 */
async function seedOther(t: FeatureServer): Promise<void> {
  await sim(t, '/sim/users', { username: OTHER });
  const jacks = await t.server.services.database.db
    .selectFrom('sim_users')
    .select('username')
    .where('id', 'in', (await followerIds(t, 'jack')).slice(0, 2))
    .execute();
  expect(jacks).toHaveLength(2);
  for (const { username } of jacks) await sim(t, `/sim/users/${username}/following`, { target: OTHER });
  for (let i = 0; i < 5; i++) {
    await sim(t, '/sim/users', { username: `mt_fan${i}` });
    await sim(t, `/sim/users/mt_fan${i}/following`, { target: OTHER });
  }
}

/** Runs a job to its end and returns it with all its results. */
async function runToEnd(t: FeatureServer, body: unknown) {
  const created = await t.request('POST', '/api/v1/extractions', { body });
  expect(created.status, JSON.stringify(created.body)).toBe(202);
  await t.runner.runPending();
  const done = await t.request('GET', `/api/v1/extractions/${created.body.id}?limit=1000`);
  return { id: created.body.id as string, job: done.body.job, results: done.body.results as Result[] };
}

describe.each(ENGINES)('extraction jobs on several targets (%s)', (engine) => {
  let t: FeatureServer;
  let jack: string[];
  let other: string[];
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    t = await startServer(engine, { extractions: { autoStart: false, pageSize: 10 } });
    await seedOther(t);
    jack = await followerIds(t, 'jack');
    other = await followerIds(t, OTHER);
    expect(other).toHaveLength(7);
  });
  afterAll(async () => {
    await t?.close();
    for (const c of cleanups.reverse()) await c();
  });

  it('reads the targets in order, tags each result, keeps a shared item under its first target, charges per result', async () => {
    const { credits } = t.server.services;
    const before = await credits.balance(t.accountId);
    const spentBefore = await spentOn(t, 'createExtraction');
    const { job, results } = await runToEnd(t, {
      toolType: 'follower_explorer',
      targetUsernames: ['@jack', OTHER],
    });
    const expected = [
      ...jack.map((id) => ({ xUserId: id, target: 'jack' })),
      ...other.filter((id) => !jack.includes(id)).map((id) => ({ xUserId: id, target: OTHER })),
    ];
    expect(job).toMatchObject({
      status: 'completed',
      complete: true,
      targetUsername: 'jack',
      targets: ['jack', OTHER],
      totalResults: expected.length,
    });
    expect(results.map((r) => ({ xUserId: r.xUserId, target: r.target }))).toEqual(expected);
    expect(before - (await credits.balance(t.accountId))).toBe(BigInt(expected.length));
    expect((await spentOn(t, 'createExtraction')) - spentBefore).toBe(expected.length);
  });

  it('dedupeAcrossTargets: false keeps a shared item once per target', async () => {
    const { results } = await runToEnd(t, {
      toolType: 'follower_explorer',
      targetUsernames: ['jack', OTHER],
      dedupeAcrossTargets: false,
    });
    expect(results.map((r) => `${r.target}:${r.xUserId}`)).toEqual([
      ...jack.map((id) => `jack:${id}`),
      ...other.map((id) => `${OTHER}:${id}`),
    ]);
  });

  it('dedupeMode: merge keeps a shared item once, listing every target that found it', async () => {
    const { id, results } = await runToEnd(t, {
      toolType: 'follower_explorer',
      targets: ['jack', { kind: 'profile', value: OTHER }],
      dedupeMode: 'merge',
    });
    const shared = new Set(other.filter((x) => jack.includes(x)));
    expect(shared.size).toBe(2);
    expect(results).toHaveLength(new Set([...jack, ...other]).size);
    for (const r of results) {
      const want = shared.has(r.xUserId) ? ['jack', OTHER] : [jack.includes(r.xUserId) ? 'jack' : OTHER];
      expect(r.targets, r.xUserId).toEqual(want);
    }
    const csv = parseCsv(
      (
        await t.server.app.inject({
          method: 'GET',
          url: `/api/v1/extractions/${id}/export?format=csv`,
          headers: { 'x-api-key': t.key },
        })
      ).body,
    );
    const col = (csv[0] ?? []).indexOf('target');
    const user = (csv[0] ?? []).indexOf('xUserId');
    expect(col).toBeGreaterThan(0);
    const byUser = new Map(csv.slice(1).map((row) => [row[user], row[col]]));
    for (const x of shared) expect(byUser.get(x)).toBe(`jack, ${OTHER}`);
  });

  it('exports the target of each result in its own column', async () => {
    const { id, results } = await runToEnd(t, {
      toolType: 'follower_explorer',
      targetUsernames: ['jack', OTHER],
    });
    const csv = parseCsv(
      (
        await t.server.app.inject({
          method: 'GET',
          url: `/api/v1/extractions/${id}/export?format=csv`,
          headers: { 'x-api-key': t.key },
        })
      ).body,
    );
    const col = (csv[0] ?? []).indexOf('target');
    expect(col).toBeGreaterThan(0);
    expect(csv.slice(1).map((row) => row[col])).toEqual(results.map((r) => r.target));
    const json = await t.request('GET', `/api/v1/extractions/${id}/export?format=json`);
    expect(json.body.job.targets).toEqual(['jack', OTHER]);
  });

  it('estimates the sum of the targets, and checks every target before anything runs', async () => {
    const one = async (username: string) =>
      (
        await t.request('POST', '/api/v1/extractions/estimate', {
          body: { toolType: 'follower_explorer', targetUsername: username },
        })
      ).body.estimatedResults as number;
    const both = await t.request('POST', '/api/v1/extractions/estimate', {
      body: { toolType: 'follower_explorer', targetUsernames: ['jack', OTHER] },
    });
    expect(both.status).toBe(200);
    expect(both.body).toMatchObject({
      estimatedResults: (await one('jack')) + (await one(OTHER)),
      source: 'followers',
    });
    const capped = await t.request('POST', '/api/v1/extractions/estimate', {
      body: { toolType: 'follower_explorer', targetUsernames: ['jack', OTHER], resultsLimit: 3 },
    });
    expect(capped.body).toMatchObject({ estimatedResults: 3, source: 'resultsLimit' });
    const missing = await t.request('POST', '/api/v1/extractions', {
      body: { toolType: 'follower_explorer', targetUsernames: ['jack', 'mt_nobody'] },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('user_not_found');
  });

  it('a job interrupted in its second target resumes there after a restart, each result once', async () => {
    const { database, drop } = await testDatabase(engine);
    cleanups.push(drop);
    const first = await startServer(engine, { database, extractions: { autoStart: false, pageSize: 2 } });
    await seedOther(first);
    const jackIds = await followerIds(first, 'jack');
    const otherIds = await followerIds(first, OTHER);
    const created = await first.request('POST', '/api/v1/extractions', {
      body: { toolType: 'follower_explorer', targetUsernames: ['jack', OTHER] },
    });
    expect(created.status).toBe(202);
    const id = created.body.id as string;
    // One page at a time until the second target has given something but not everything.
    let partial: { job: { status: string }; results: Result[] } | undefined;
    for (let pages = 0; pages < 500; pages++) {
      await first.runner.step(id, 1);
      partial = (await first.request('GET', `/api/v1/extractions/${id}?limit=1000`)).body;
      if (partial?.results.some((r) => r.target === OTHER)) break;
    }
    expect(partial?.job.status).toBe('running');
    await first.close();

    const second = await startServer(engine, { database, extractions: { pageSize: 2 } });
    await second.server.app.ready();
    await second.runner.idle();
    const done = await second.request('GET', `/api/v1/extractions/${id}?limit=1000`);
    const expected = [
      ...jackIds.map((x) => `jack:${x}`),
      ...otherIds.filter((x) => !jackIds.includes(x)).map((x) => `${OTHER}:${x}`),
    ];
    expect(done.body.job).toMatchObject({ status: 'completed', totalResults: expected.length });
    expect(done.body.results.map((r: Result) => `${r.target}:${r.xUserId}`)).toEqual(expected);
    expect(await spentOn(second, 'createExtraction')).toBe(expected.length);
    await second.close();
  });
});
