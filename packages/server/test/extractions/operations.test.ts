/**
 * The extraction operations through HTTP (spec 2.8, 4.8, 9.5) on both engines: list, estimate (and
 * `dry_run`), get with its output options, export in the 7 formats, and the 4xx answers.
 */
import { EXPORT_FORMATS, schemas, strictify } from '@xsvc/sdk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../helpers/server.js';
import { parseCsv, readPdf, readXlsx } from './files.js';
import { type FeatureServer, setBalance, startServer } from './helpers.js';

const Estimate = strictify(schemas.ExtractionEstimateSchema);

describe.each(ENGINES)('extraction operations (%s)', (engine) => {
  let t: FeatureServer;
  let followers: string;
  let replies: string;
  let jackFollowers: number;
  beforeAll(async () => {
    t = await startServer(engine);
    const run = async (body: unknown) =>
      (await t.request('POST', '/api/v1/extractions', { body })).body.id as string;
    followers = await run({ toolType: 'follower_explorer', targetUsername: 'jack' });
    t.clock.advance(1_000);
    const tweet = await t.server.services.database.db
      .selectFrom('sim_tweets')
      .select('id')
      .where('kind', '=', 'tweet')
      .where('deleted', '=', 0)
      .orderBy('reply_count', 'desc')
      .executeTakeFirstOrThrow();
    replies = await run({
      toolType: 'reply_extractor',
      targetTweetId: `https://x.com/i/web/status/${tweet.id}`,
    });
    await t.runner.idle();
    jackFollowers = (await t.server.services.platform.getUser('jack'))?.followers ?? 0;
  });
  afterAll(async () => t?.close());

  it('lists jobs newest first in style-A pages, filtered by tool and state', async () => {
    const all = await t.request('GET', '/api/v1/extractions');
    expect(all.status).toBe(200);
    expect(all.body.extractions.map((j: { id: string }) => j.id)).toEqual([replies, followers]);
    expect(all.body.hasMore).toBe(false);
    const first = await t.request('GET', '/api/v1/extractions?limit=1');
    expect(first.body).toMatchObject({ hasMore: true, extractions: [{ id: replies }] });
    const second = await t.request('GET', `/api/v1/extractions?limit=1&after=${first.body.nextCursor}`);
    expect(second.body.extractions.map((j: { id: string }) => j.id)).toEqual([followers]);
    expect(second.body.hasMore).toBe(false);
    const byTool = await t.request('GET', '/api/v1/extractions?toolType=reply_extractor');
    expect(byTool.body.extractions.map((j: { id: string }) => j.id)).toEqual([replies]);
    expect((await t.request('GET', '/api/v1/extractions?status=failed')).body.extractions).toEqual([]);
    expect((await t.request('GET', '/api/v1/extractions?status=completed')).body.extractions).toHaveLength(2);
    expect((await t.request('GET', '/api/v1/extractions?after=nope')).body.error).toBe('invalid_input');
    expect((await t.request('GET', '/api/v1/extractions?toolType=nope')).status).toBe(400);
    expect((await t.request('GET', '/api/v1/extractions?limit=101')).body.error).toBe('invalid_input');
  });

  it('estimates from the target’s own counts, capped by resultsLimit; dry_run answers the estimate', async () => {
    const jack = await t.server.services.platform.getUser('jack');
    const e = await t.request('POST', '/api/v1/extractions/estimate', {
      body: { toolType: 'follower_explorer', targetUsername: '@jack' },
    });
    expect(e.status).toBe(200);
    expect(Estimate.parse(e.body)).toBeTruthy();
    const balance = await t.server.services.credits.balance(t.accountId);
    expect(e.body).toEqual({
      estimatedResults: jackFollowers,
      creditsRequired: String(jackFollowers),
      creditsAvailable: String(balance),
      allowed: true,
      source: 'followers',
      resolvedXUserId: jack?.id,
    });
    const capped = await t.request('POST', '/api/v1/extractions/estimate', {
      body: { toolType: 'follower_explorer', targetUsername: 'jack', resultsLimit: 2 },
    });
    expect(capped.body).toMatchObject({ estimatedResults: 2, creditsRequired: '2', source: 'resultsLimit' });
    const search = await t.request('POST', '/api/v1/extractions/estimate', {
      body: { toolType: 'people_search', searchQuery: 'jack' },
    });
    expect(search.body.source).toBe('paginationCap');
    const jobsBefore = (await t.request('GET', '/api/v1/extractions')).body.extractions.length;
    const dry = await t.request('POST', '/api/v1/extractions?dry_run=true', {
      body: { toolType: 'follower_explorer', targetUsername: 'jack' },
    });
    expect(dry.status).toBe(200);
    expect(Estimate.parse(dry.body)).toEqual(e.body);
    expect((await t.request('GET', '/api/v1/extractions')).body.extractions).toHaveLength(jobsBefore);
    await setBalance(t, 3n);
    const short = await t.request('POST', '/api/v1/extractions/estimate', {
      body: { toolType: 'follower_explorer', targetUsername: 'jack' },
    });
    expect(short.body).toMatchObject({ creditsAvailable: '3', allowed: false });
    await setBalance(t, 1_000_000n);
  });

  it('reads a job with its results: limits, output modes, and the deprecated includeRaw', async () => {
    const full = await t.request('GET', `/api/v1/extractions/${replies}`);
    expect(full.status).toBe(200);
    expect(full.body.job).toMatchObject({ id: replies, toolType: 'reply_extractor', status: 'completed' });
    expect(full.body.job.targetUsername).toBeUndefined();
    expect(full.body.results.length).toBe(Math.min(100, full.body.job.totalResults));
    const first = full.body.results[0];
    expect(first).toMatchObject({ id: '1', tweetId: expect.any(String), tweetText: expect.any(String) });
    expect(first.enrichmentData).toBeDefined();
    expect(full.headers.deprecation).toBeUndefined();

    const compact = await t.request('GET', `/api/v1/extractions/${replies}?outputMode=compact&limit=5`);
    expect(compact.body.results).toHaveLength(Math.min(5, full.body.job.totalResults));
    expect(compact.body.results.every((r: object) => !('enrichmentData' in r))).toBe(true);

    const raw = await t.request('GET', `/api/v1/extractions/${replies}?includeRaw=true&limit=5`);
    expect(raw.status).toBe(200);
    expect(raw.headers.deprecation).toMatch(/^@\d+$/);
    expect(raw.headers.link).toContain('rel="deprecation"');
    expect(raw.body.results[0]).toEqual(first);
    const modern = await t.request('GET', `/api/v1/extractions/${replies}?outputMode=raw&limit=5`);
    expect(modern.headers.deprecation).toBeUndefined();
    expect(modern.body.results).toEqual(raw.body.results);

    const clash = await t.request('GET', `/api/v1/extractions/${replies}?includeRaw=true&outputMode=compact`);
    expect(clash.status).toBe(400);
    expect(clash.body.error).toBe('invalid_output_options');
    expect((await t.request('GET', `/api/v1/extractions/${replies}?fieldStyle=snake_case`)).body.error).toBe(
      'invalid_output_options',
    );
    expect((await t.request('GET', `/api/v1/extractions/${replies}?limit=1001`)).body.error).toBe(
      'invalid_input',
    );
    expect((await t.request('GET', `/api/v1/extractions/${replies}?after=abc`)).body.error).toBe(
      'invalid_input',
    );
    const past = await t.request('GET', `/api/v1/extractions/${replies}?after=999999`);
    expect(past.body).toMatchObject({ results: [], hasMore: false });
    const missing = await t.request('GET', '/api/v1/extractions/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('not_found');
  });

  it('exports the results in the 7 formats, each parsed back, narrowed by the filters', async () => {
    const page = await t.request('GET', `/api/v1/extractions/${followers}?limit=1000`);
    const usernames = page.body.results.map((r: { xUsername: string }) => r.xUsername);
    expect(usernames.length).toBe(page.body.job.totalResults);
    expect(usernames.length).toBeGreaterThan(10);
    for (const format of EXPORT_FORMATS) {
      const r = await t.request('GET', `/api/v1/extractions/${followers}/export?format=${format}`);
      expect(r.status, format).toBe(200);
      expect(r.headers['content-disposition']).toMatch(
        new RegExp(`^attachment; filename="extraction-${followers}\\.`),
      );
    }
    const csvRes = await t.server.app.inject({
      method: 'GET',
      url: `/api/v1/extractions/${followers}/export?format=csv`,
      headers: { 'x-api-key': t.key },
    });
    expect(csvRes.headers['content-type']).toBe('text/csv; charset=utf-8');
    const csv = parseCsv(csvRes.body);
    const col = (csv[0] ?? []).indexOf('xUsername');
    expect(csv.slice(1).map((row) => row[col])).toEqual(usernames);
    const json = await t.request('GET', `/api/v1/extractions/${followers}/export?format=json`);
    expect(json.body.job.id).toBe(followers);
    expect(json.body.results).toEqual(page.body.results);
    const xlsx = await t.server.app.inject({
      method: 'GET',
      url: `/api/v1/extractions/${followers}/export?format=xlsx`,
      headers: { 'x-api-key': t.key },
    });
    const sheet = readXlsx(xlsx.rawPayload);
    expect(sheet.slice(1).map((row) => row[(sheet[0] ?? []).indexOf('xUsername')])).toEqual(usernames);
    const pdf = await t.server.app.inject({
      method: 'GET',
      url: `/api/v1/extractions/${followers}/export?format=pdf`,
      headers: { 'x-api-key': t.key },
    });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(readPdf(pdf.rawPayload).text).toContain(usernames[0]);
    const md = await t.request('GET', `/api/v1/extractions/${followers}/export?format=md`);
    expect(md.body.trim().split('\n')).toHaveLength(4 + usernames.length);
    const doc = await t.request('GET', `/api/v1/extractions/${followers}/export?format=md-document`);
    expect(doc.body).toContain(`- **Username:** ${usernames[0]}`);
    const txt = await t.request('GET', `/api/v1/extractions/${followers}/export?format=txt`);
    expect(txt.body).toContain(`Username: ${usernames.at(-1)}`);

    const counts = page.body.results.map((r: { xFollowersCount?: number }) => r.xFollowersCount ?? 0);
    const threshold = [...counts].sort((a: number, b: number) => a - b)[Math.floor(counts.length / 2)];
    const filtered = await t.request(
      'GET',
      `/api/v1/extractions/${followers}/export?format=json&minFollowers=${threshold}`,
    );
    expect(filtered.body.results.length).toBe(counts.filter((c: number) => c >= threshold).length);
    expect(filtered.body.results.length).toBeLessThan(usernames.length);
    const none = await t.request('GET', `/api/v1/extractions/${followers}/export?format=json&search=zzzqqq`);
    expect(none.body.results).toEqual([]);

    const bad = await t.request('GET', `/api/v1/extractions/${followers}/export?format=docx`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_format');
    expect((await t.request('GET', `/api/v1/extractions/${followers}/export`)).body.error).toBe(
      'invalid_format',
    );
    const gone = await t.request(
      'GET',
      '/api/v1/extractions/00000000-0000-4000-8000-000000000000/export?format=csv',
    );
    expect(gone.status).toBe(404);
  });

  it('answers the 4xx of a run before starting anything', async () => {
    const post = (body: unknown, key?: string | null) =>
      t.request('POST', '/api/v1/extractions', { body, ...(key !== undefined && { key }) });
    const expectError = async (body: unknown, status: number, code: string) => {
      const r = await post(body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.body.error, JSON.stringify(body)).toBe(code);
    };
    const before = (await t.request('GET', '/api/v1/extractions')).body.extractions.length;
    await expectError({ toolType: 'nope', targetUsername: 'jack' }, 400, 'invalid_tool_type');
    await expectError({ targetUsername: 'jack' }, 400, 'invalid_tool_type');
    await expectError({ toolType: 'follower_explorer' }, 400, 'invalid_input');
    await expectError({ toolType: 'follower_explorer', targetUsername: 'bad name!' }, 400, 'invalid_input');
    await expectError(
      { toolType: 'follower_explorer', targetUsername: 'jack', resultsLimit: 0 },
      400,
      'invalid_input',
    );
    await expectError({ toolType: 'reply_extractor', targetTweetId: '1' }, 404, 'tweet_not_found');
    await expectError(
      { toolType: 'follower_explorer', targetUsername: 'nosuchuser_zz' },
      404,
      'user_not_found',
    );
    await expectError({ toolType: 'list_member_extractor', targetListId: '1' }, 404, 'not_found');
    await expectError({ toolType: 'community_extractor', targetCommunityId: '1' }, 404, 'not_found');
    await expectError({ toolType: 'space_explorer', targetSpaceId: '1' }, 404, 'not_found');
    const plain = await t.server.services.database.db
      .selectFrom('sim_tweets')
      .select('id')
      .where('kind', '=', 'tweet')
      .where('deleted', '=', 0)
      .where('id', 'not in', (eb) => eb.selectFrom('sim_articles').select('tweet_id'))
      .executeTakeFirstOrThrow();
    await expectError({ toolType: 'article_extractor', targetTweetId: plain.id }, 404, 'article_not_found');
    expect((await post({ toolType: 'follower_explorer', targetUsername: 'jack' }, null)).status).toBe(401);
    const estimate = await t.request('POST', '/api/v1/extractions/estimate', { body: { toolType: 'nope' } });
    expect(estimate.body.error).toBe('invalid_tool_type');
    await setBalance(t, 0n);
    await expectError({ toolType: 'follower_explorer', targetUsername: 'jack' }, 402, 'insufficient_credits');
    await setBalance(t, 1_000_000n);
    expect((await t.request('GET', '/api/v1/extractions')).body.extractions).toHaveLength(before);
  });

  it('a job that runs out of credits keeps what it paid for and completes', async () => {
    await setBalance(t, 4n);
    const r = await t.request('POST', '/api/v1/extractions', {
      body: { toolType: 'follower_explorer', targetUsername: 'jack' },
    });
    expect(r.status).toBe(202);
    await t.runner.idle();
    const got = await t.request('GET', `/api/v1/extractions/${r.body.id}`);
    expect(got.body.job).toMatchObject({
      status: 'completed',
      totalResults: 4,
      complete: false,
      incompleteReason: 'insufficient_credits',
    });
    expect(got.body.job).not.toHaveProperty('errorMessage');
    expect(got.body.results).toHaveLength(4);
    expect(await t.server.services.credits.balance(t.accountId)).toBe(0n);
    await setBalance(t, 1_000_000n);
  });
});
