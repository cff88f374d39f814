/**
 * The extraction job life cycle (spec 3.2) on both engines: a job interrupted by a server shutdown resumes
 * after a restart and collects everything exactly once; a job whose runner died is taken over; a stalled
 * read keeps its results and marks the job; a failing read fails it with `errorMessage`.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { PlatformUnavailableError } from '../../src/core/platform/platform.js';
import { ENGINES, testDatabase } from '../helpers/server.js';
import { type FeatureServer, spentOn, startServer } from './helpers.js';

const run = { toolType: 'follower_explorer', targetUsername: 'jack' };

/** Every follower id of jack, as the platform lists them. */
async function jackFollowers(t: FeatureServer): Promise<string[]> {
  const { platform } = t.server.services;
  const jack = await platform.getUser('jack');
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await platform.followers(jack?.id ?? '', {}, { pageSize: 100, ...(cursor && { cursor }) });
    ids.push(...page.items.map((u) => u.id));
    cursor = page.nextCursor;
  } while (cursor);
  return ids;
}

describe.each(ENGINES)('extraction jobs across restarts and failures (%s)', (engine) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('a job interrupted by a shutdown resumes when the server starts again, each result once', async () => {
    const { database, drop } = await testDatabase(engine);
    cleanups.push(drop);
    const first = await startServer(engine, { database, extractions: { autoStart: false, pageSize: 10 } });
    const created = await first.request('POST', '/api/v1/extractions', { body: run });
    expect(created.status).toBe(202);
    await first.runner.step(created.body.id, 2);
    const partial = await first.request('GET', `/api/v1/extractions/${created.body.id}`);
    expect(partial.body.job).toMatchObject({ status: 'running', totalResults: 20 });
    await first.close();

    const second = await startServer(engine, { database, extractions: { pageSize: 10 } });
    await second.server.app.ready();
    await second.runner.idle();
    const done = await second.request('GET', `/api/v1/extractions/${created.body.id}?limit=1000`);
    const expected = await jackFollowers(second);
    expect(done.body.job).toMatchObject({ status: 'completed', totalResults: expected.length });
    expect(done.body.results.map((r: { xUserId: string }) => r.xUserId)).toEqual(expected);
    expect(await spentOn(second, 'createExtraction')).toBe(expected.length);
    await second.close();
  });

  it('a server closed while a job runs hands the job back after its page; the next start finishes it', async () => {
    const { database, drop } = await testDatabase(engine);
    cleanups.push(drop);
    let calls = 0;
    let reached: () => void = () => undefined;
    let open: () => void = () => undefined;
    const atThirdPage = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const first = await startServer(engine, {
      database,
      extractions: { pageSize: 10 },
      platform: (real) => ({
        followers: async (userId, filters, page) => {
          if (++calls === 3) {
            reached();
            await gate;
          }
          return real.followers(userId, filters, page);
        },
      }),
    });
    const created = await first.request('POST', '/api/v1/extractions', { body: run });
    await atThirdPage;
    const closing = first.close();
    open();
    await closing;
    const row = await database.db
      .selectFrom('extraction_jobs')
      .selectAll()
      .where('id', '=', created.body.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'running' });
    // The closed server gave its lease back: the next one takes the job at once.
    const job = await database.db
      .selectFrom('jobs')
      .select(['lease_owner'])
      .where('kind', '=', 'extraction.job')
      .where('key', '=', created.body.id)
      .executeTakeFirstOrThrow();
    expect(job.lease_owner).toBeNull();
    expect(Number(row.total_results)).toBe(30);

    const second = await startServer(engine, { database });
    await second.server.app.ready();
    await second.runner.idle();
    const done = await second.request('GET', `/api/v1/extractions/${created.body.id}?limit=1000`);
    const expected = await jackFollowers(second);
    expect(done.body.job).toMatchObject({ status: 'completed', totalResults: expected.length });
    expect(done.body.results.map((r: { xUserId: string }) => r.xUserId)).toEqual(expected);
    await second.close();
  });

  it('a job whose runner died (its lease expired) is taken over', async () => {
    const t = await startServer(engine, { extractions: { autoStart: false, leaseMs: 60_000 } });
    cleanups.push(() => t.close());
    const created = await t.request('POST', '/api/v1/extractions', { body: run });
    // Another instance claimed it and vanished.
    await t.server.services.database.db
      .updateTable('jobs')
      .set({ lease_owner: 'extr_dead', lease_until: t.clock.now() + 60_000 })
      .where('kind', '=', 'extraction.job')
      .where('key', '=', created.body.id)
      .execute();
    await t.runner.runPending();
    expect((await t.request('GET', `/api/v1/extractions/${created.body.id}`)).body.job.status).toBe(
      'running',
    );
    t.clock.advance(60_001);
    await t.runner.runPending();
    const job = (await t.request('GET', `/api/v1/extractions/${created.body.id}`)).body.job;
    expect(job).toMatchObject({ status: 'completed', totalResults: (await jackFollowers(t)).length });
  });

  it('a stalled read keeps its results and marks the job incomplete (pagination_stalled)', async () => {
    const t = await startServer(engine, {
      platform: (real) => ({
        followers: async (userId, filters, page) => {
          if (page.cursor === undefined) {
            const first = await real.followers(userId, filters, page);
            return { items: first.items.slice(0, 5), nextCursor: 'stuck-1' };
          }
          return { items: [], nextCursor: page.cursor === 'stuck-1' ? 'stuck-2' : 'stuck-3' };
        },
      }),
    });
    cleanups.push(() => t.close());
    const created = await t.request('POST', '/api/v1/extractions', { body: run });
    await t.runner.idle();
    const got = await t.request('GET', `/api/v1/extractions/${created.body.id}`);
    expect(got.body.job).toMatchObject({
      status: 'completed',
      totalResults: 5,
      complete: false,
      incompleteReason: 'pagination_stalled',
    });
    expect(got.body.job).not.toHaveProperty('errorMessage');
    expect(got.body.results).toHaveLength(5);
  });

  it('a failing platform read fails the job with errorMessage, keeping what came before', async () => {
    let calls = 0;
    const t = await startServer(engine, {
      extractions: { pageSize: 5 },
      platform: (real) => ({
        followers: async (userId, filters, page) => {
          if (++calls > 1) throw new PlatformUnavailableError('x_api_unavailable', 'the platform is down');
          return real.followers(userId, filters, page);
        },
      }),
    });
    cleanups.push(() => t.close());
    const created = await t.request('POST', '/api/v1/extractions', { body: run });
    await t.runner.idle();
    const got = await t.request('GET', `/api/v1/extractions/${created.body.id}`);
    expect(got.body.job).toMatchObject({
      status: 'failed',
      totalResults: 5,
      errorMessage: 'x_api_unavailable: the platform is down',
    });
    expect(got.body.job.completedAt).toBeUndefined();
    expect(got.body.results).toHaveLength(5);
    const failed = await t.request('GET', '/api/v1/extractions?status=failed');
    expect(failed.body.extractions.map((j: { id: string }) => j.id)).toEqual([created.body.id]);
  });
});
