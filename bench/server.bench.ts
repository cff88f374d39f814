/**
 * Server benchmark: `GET /api/v1/x/tweets/{id}` through the whole stack (API-key auth, the fixed-window rate
 * limiter and per-call metering with its ledger row, on SQLite in WAL mode) against a bare Fastify route
 * answering the same tweet, both measured with autocannon in this run. Goal: >= 50% of bare.
 *
 * The read tier's limit is raised for the run so the limiter counts every request without throttling
 * (at spec figures, 300/s per account, most requests would be 429s).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootstrapOwner, createServer, parseConfig } from '@xsvc/server';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { goal, table } from './src/stats.js';

const KEY = `svc_${'be'.repeat(32)}`;

async function measure(
  url: string,
  headers: Record<string, string>,
): Promise<{ rps: number; p99: number; non2xx: number }> {
  const r = await autocannon({ url, headers, connections: 16, duration: 5, pipelining: 1 });
  return { rps: r.requests.average, p99: r.latency.p99, non2xx: r.non2xx };
}

const dir = mkdtempSync(join(tmpdir(), 'xsvc-bench-'));
const config = parseConfig({
  databaseUrl: join(dir, 'bench.db'),
  seedSize: 'tiny',
  logLevel: 'silent',
  keyFile: '',
  bootstrapApiKey: KEY,
});
const server = await createServer(config, {
  rateLimits: {
    read: { limit: 1_000_000_000, windowMs: 1_000, retryAfterSeconds: 1 },
    write: { limit: 120, windowMs: 60_000, retryAfterSeconds: 60 },
    delete: { limit: 60, windowMs: 60_000, retryAfterSeconds: 60 },
  },
});
await bootstrapOwner(server.services.database, config, Date.now());
const tweet = await server.services.database.db
  .selectFrom('sim_tweets')
  .select('id')
  .where('deleted', '=', 0)
  .where('kind', '=', 'tweet')
  .orderBy('id')
  .executeTakeFirstOrThrow();
const ours = await server.app.listen({ port: 0, host: '127.0.0.1' });
const sample = await (
  await fetch(`${ours}/api/v1/x/tweets/${tweet.id}`, { headers: { 'x-api-key': KEY } })
).json();

const bare = Fastify({ logger: false });
bare.get('/api/v1/x/tweets/:id', async () => sample);
const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

const before = await server.services.database.db
  .selectFrom('credit_ledger')
  .select((eb) => eb.fn.countAll().as('n'))
  .executeTakeFirst();
const rows: (string | number)[][] = [['target', 'req/s', 'p99 ms', 'non-2xx']];
const bareRuns: number[] = [];
const oursRuns: number[] = [];
for (let round = 0; round < 2; round++) {
  const b = await measure(`${bareUrl}/api/v1/x/tweets/${tweet.id}`, {});
  const o = await measure(`${ours}/api/v1/x/tweets/${tweet.id}`, { 'x-api-key': KEY });
  bareRuns.push(b.rps);
  oursRuns.push(o.rps);
  rows.push([`bare Fastify route (round ${round + 1})`, Math.round(b.rps), b.p99, b.non2xx]);
  rows.push([`xsvc-server lookupTweet (round ${round + 1})`, Math.round(o.rps), o.p99, o.non2xx]);
  if (o.non2xx > 0) console.log(`warning: ${o.non2xx} non-2xx answers from the server`);
}
const after = await server.services.database.db
  .selectFrom('credit_ledger')
  .select((eb) => eb.fn.countAll().as('n'))
  .executeTakeFirst();
console.log(
  '\nGET /api/v1/x/tweets/{id}: auth + rate limit + metering on SQLite (WAL), 16 connections, 5 s per round',
);
table(rows);
console.log(
  `ledger rows written during the run: ${Number(after?.n) - Number(before?.n)} (one per charged call)`,
);
const ratio = Math.max(...oursRuns) / Math.max(...bareRuns);
goal('server >= 50% of a bare Fastify route', ratio >= 0.5, `${(ratio * 100).toFixed(0)}% of bare`);
console.log(
  'Limited by: one SQLite write transaction per request (the rate-limit upsert and the ledger row), serialized by the single writer.',
);
await bare.close();
await server.close();
rmSync(dir, { recursive: true, force: true });
