/**
 * Every one of the 23 extraction tools runs to `completed` on the simulated network (spec 3.2, 4.8), its
 * results paged with `after`, charged 1 credit each (spec 8.2), on both engines. The runner is awaited
 * (`idle()`), never slept on.
 */
import { schemas, strictify } from '@xsvc/sdk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../helpers/server.js';
import { type FeatureServer, spentOn, startServer } from './helpers.js';
import { type ToolTargets, toolTargets } from './targets.js';

const Accepted = strictify(schemas.ExtractionAcceptedSchema);

/** Every result of a job, paged with `after` `limit` at a time. */
async function allResults(t: FeatureServer, id: string, limit: number) {
  const results: { id: string; xUserId: string; xUsername?: string; tweetId?: string }[] = [];
  let after: string | undefined;
  for (let pages = 0; pages < 1_000; pages++) {
    const r = await t.request(
      'GET',
      `/api/v1/extractions/${id}?limit=${limit}${after ? `&after=${after}` : ''}`,
    );
    expect(r.status).toBe(200);
    results.push(...r.body.results);
    expect(r.body.hasMore).toBe(r.body.nextCursor !== undefined);
    after = r.body.nextCursor;
    if (!after) return results;
  }
  throw new Error('paging never ended');
}

describe.each(ENGINES)('extraction tools (%s)', (engine) => {
  let t: FeatureServer;
  let targets: ToolTargets;
  beforeAll(async () => {
    t = await startServer(engine);
    targets = await toolTargets(t);
  });
  afterAll(async () => t?.close());

  it('runs each of the 23 tool types to completed, 1 credit per result', async () => {
    expect(Object.keys(targets).sort()).toEqual([...schemas.EXTRACTION_TOOL_TYPES].sort());
    const jobs = new Map<string, string>();
    for (const toolType of schemas.EXTRACTION_TOOL_TYPES) {
      const r = await t.request('POST', '/api/v1/extractions', { body: { toolType, ...targets[toolType] } });
      expect(r.status, `${toolType}: ${JSON.stringify(r.body)}`).toBe(202);
      expect(Accepted.parse(r.body)).toEqual({ id: r.body.id, toolType, status: 'running' });
      jobs.set(toolType, r.body.id);
    }
    await t.runner.idle();
    let total = 0;
    for (const [toolType, id] of jobs) {
      const r = await t.request('GET', `/api/v1/extractions/${id}?limit=1000`);
      expect(r.body.job.status, `${toolType}: ${r.body.job.errorMessage}`).toBe('completed');
      expect(r.body.job.errorMessage).toBeUndefined();
      expect(r.body.job.completedAt).toBeDefined();
      expect(r.body.job.totalResults, toolType).toBeGreaterThan(0);
      expect(r.body.results).toHaveLength(r.body.job.totalResults);
      expect(r.body.results.map((x: { id: string }) => x.id)).toEqual(
        r.body.results.map((_: unknown, i: number) => String(i + 1)),
      );
      total += r.body.job.totalResults;
    }
    expect(await spentOn(t, 'createExtraction')).toBe(total);
  });

  it('collects exactly what the platform lists, once each, and pages the results with after', async () => {
    const r = await t.request('POST', '/api/v1/extractions', {
      body: { toolType: 'follower_explorer', targetUsername: '@jack' },
    });
    await t.runner.idle();
    const { platform } = t.server.services;
    const jack = await platform.getUser('jack');
    const expected: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await platform.followers(jack?.id ?? '', {}, { pageSize: 100, ...(cursor && { cursor }) });
      expected.push(...page.items.map((u) => u.id));
      cursor = page.nextCursor;
    } while (cursor);
    const paged = await allResults(t, r.body.id, 7);
    expect(paged.map((x) => x.xUserId)).toEqual(expected);
    expect((await allResults(t, r.body.id, 1000)).map((x) => x.id)).toEqual(paged.map((x) => x.id));
    const job = (await t.request('GET', `/api/v1/extractions/${r.body.id}?limit=1`)).body.job;
    expect(job).toMatchObject({
      targetUsername: 'jack',
      targetUserId: jack?.id,
      totalResults: expected.length,
    });
  });

  it('stops at resultsLimit', async () => {
    const r = await t.request('POST', '/api/v1/extractions', {
      body: { toolType: 'following_explorer', targetUsername: 'jack', resultsLimit: 3 },
    });
    await t.runner.idle();
    const got = await t.request('GET', `/api/v1/extractions/${r.body.id}`);
    expect(got.body.job).toMatchObject({ status: 'completed', totalResults: 3 });
    expect(got.body.results).toHaveLength(3);
  });
});
