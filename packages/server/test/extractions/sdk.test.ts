/**
 * The SDK's client against a listening server (real HTTP on 127.0.0.1): it runs a draw, and runs an
 * extraction to completion with its `extractions` helpers (wait, iterate the results, export).
 */
import { Xsvc } from '@xsvc/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { XsvcServer } from '../../src/app/app.js';
import { bootstrapOwner } from '../../src/app/bootstrap.js';
import { createServer } from '../../src/app/server.js';
import { parseConfig } from '../../src/core/config.js';
import { parseCsv } from './files.js';

const KEY = `svc_${'7c'.repeat(32)}`;
let server: XsvcServer;
let xsvc: Xsvc;

beforeAll(async () => {
  const config = parseConfig({ databaseUrl: ':memory:', seedSize: 'tiny', logLevel: 'silent', keyFile: '' });
  server = await createServer(config);
  await bootstrapOwner(server.services.database, { ...config, bootstrapApiKey: KEY }, Date.now());
  const url = await server.app.listen({ port: 0, host: '127.0.0.1' });
  xsvc = new Xsvc({ apiKey: KEY, baseUrl: url });
});

afterAll(async () => server?.close());

describe('the SDK runs draws and extractions against a running server', () => {
  it('runs a draw, reads it back and lists it', async () => {
    const db = server.services.database.db;
    const tweet = await db
      .selectFrom('sim_tweets')
      .innerJoin('sim_users', 'sim_users.id', 'sim_tweets.author_id')
      .select(['sim_tweets.id', 'sim_users.username'])
      .where('sim_tweets.kind', '=', 'tweet')
      .where('sim_tweets.deleted', '=', 0)
      .where('sim_users.protected', '=', 0)
      .where('sim_users.suspended', '=', 0)
      .orderBy('sim_tweets.reply_count', 'desc')
      .executeTakeFirstOrThrow();
    const draw = await xsvc.draws.run({
      tweetUrl: `https://x.com/${tweet.username}/status/${tweet.id}`,
      winnerCount: 2,
      uniqueAuthorsOnly: true,
    });
    expect(draw.tweetId).toBe(tweet.id);
    expect(draw.totalEntries).toBeGreaterThan(0);
    expect(draw.winners.filter((w) => !w.isBackup)).toHaveLength(2);
    const got = await xsvc.draws.get(draw.id);
    expect(got.winners).toEqual(draw.winners);
    const listed = await xsvc.draws.list();
    expect(listed.items.map((d) => d.id)).toContain(draw.id);
    const file = await xsvc.draws.export(draw.id, { format: 'csv', type: 'winners' });
    expect(
      parseCsv(await file.text())
        .slice(1)
        .map((r) => r[2]),
    ).toEqual(draw.winners.map((w) => w.authorUsername));
  });

  it('runs an extraction to completion with the extraction helpers', async () => {
    const run = await xsvc.extractions.run({ toolType: 'follower_explorer', targetUsername: '@jack' });
    expect(run.status).toBe('running');
    const job = await run.wait({ pollIntervalMs: 20, timeoutMs: 60_000 });
    expect(job.status).toBe('completed');
    expect(job.totalResults).toBeGreaterThan(0);
    const ids: string[] = [];
    for await (const result of run.results({ limit: 7 })) ids.push(result.id);
    expect(ids).toEqual(Array.from({ length: job.totalResults }, (_, i) => String(i + 1)));
    const csv = await run.export({ format: 'csv' });
    expect(parseCsv(await csv.text())).toHaveLength(job.totalResults + 1);
    const estimate = await xsvc.extractions.estimate({
      toolType: 'follower_explorer',
      targetUsername: 'jack',
    });
    expect(estimate.source).toBe('followers');
    const list = await xsvc.extractions.list({ status: 'completed' });
    expect(list.items.map((j) => j.id)).toContain(run.id);
  });
});
