/**
 * Server benchmark: `GET /api/v1/x/tweets/{id}` through the whole stack (API-key auth, the fixed-window rate
 * limiter and per-call metering with its ledger row, on SQLite in WAL mode) against a bare Fastify route
 * answering the same tweet, both measured with autocannon in this run. Goal (issue #20): >= 60% of bare, as the median of paired rounds.
 *
 * The read tier's limit is raised for the run so the limiter counts every request without throttling
 * (at spec figures, 300/s per account, most requests would be 429s). Both targets are warmed up first (JIT,
 * caches), then measured in alternating rounds; the machine is shared, so each server round is compared
 * with the bare round beside it and the goal takes the median of those ratios (the best rounds are printed
 * too), and the CPU time per request of each round shows where the time goes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootstrapOwner, createServer, parseConfig } from '@xsvc/server';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { goal, median, table } from './src/stats.js';

const KEY = `svc_${'be'.repeat(32)}`;
const ROUNDS = 3;
const ROUND_SECONDS = 4;
const WARMUP_SECONDS = 2;

interface Round {
  rps: number;
  p99: number;
  non2xx: number;
  /** Process CPU (user + system) per request, µs: the server and the load generator share this process. */
  cpuUs: number;
  /** CPU time over wall time: below 1, the one event loop was blocked outside the CPU (disk waits). */
  busy: number;
}

async function measure(url: string, headers: Record<string, string>, duration: number): Promise<Round> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const r = await autocannon({ url, headers, connections: 16, duration, pipelining: 1 });
  const used = process.cpuUsage(cpu);
  const wallUs = (performance.now() - start) * 1000;
  return {
    rps: r.requests.average,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    cpuUs: (used.user + used.system) / Math.max(1, r.requests.total),
    busy: (used.user + used.system) / wallUs,
  };
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

/** The owner's balance, and the ledger's row count and sum: they must move together, one row per charge. */
const books = async () => {
  const db = server.services.database.db;
  const ledger = await db
    .selectFrom('credit_ledger')
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum<bigint | number>('delta').as('sum')])
    .executeTakeFirstOrThrow();
  const owner = await db
    .selectFrom('accounts')
    .select('credits_balance')
    .where('is_owner', '=', 1)
    .executeTakeFirstOrThrow();
  return { rows: Number(ledger.n), sum: BigInt(ledger.sum ?? 0), balance: BigInt(owner.credits_balance) };
};
const before = await books();
const targets = {
  bare: () => measure(`${bareUrl}/api/v1/x/tweets/${tweet.id}`, {}, ROUND_SECONDS),
  ours: () => measure(`${ours}/api/v1/x/tweets/${tweet.id}`, { 'x-api-key': KEY }, ROUND_SECONDS),
};
await measure(`${bareUrl}/api/v1/x/tweets/${tweet.id}`, {}, WARMUP_SECONDS);
await measure(`${ours}/api/v1/x/tweets/${tweet.id}`, { 'x-api-key': KEY }, WARMUP_SECONDS);

const rows: (string | number)[][] = [['target', 'req/s', 'p99 ms', 'non-2xx', 'CPU µs/req']];
const bareRuns: Round[] = [];
const oursRuns: Round[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  const b = await targets.bare();
  const o = await targets.ours();
  bareRuns.push(b);
  oursRuns.push(o);
  rows.push([`bare Fastify route (round ${round})`, Math.round(b.rps), b.p99, b.non2xx, b.cpuUs.toFixed(0)]);
  rows.push([
    `xsvc-server lookupTweet (round ${round})`,
    Math.round(o.rps),
    o.p99,
    o.non2xx,
    o.cpuUs.toFixed(0),
  ]);
  if (o.non2xx > 0) console.log(`warning: ${o.non2xx} non-2xx answers from the server`);
}
const after = await books();
const written = after.rows - before.rows;
const spent = before.balance - after.balance;
const reconciles = spent === before.sum - after.sum && spent === BigInt(written);
console.log(
  `\nGET /api/v1/x/tweets/{id}: auth + rate limit + metering on SQLite (WAL), 16 connections, ` +
    `${WARMUP_SECONDS} s warm-up, then ${ROUNDS} alternating rounds of ${ROUND_SECONDS} s`,
);
table(rows);
console.log(
  `ledger rows written: ${written}, credits spent: ${spent} (1 per call)${reconciles ? ': the balance reconciles with the ledger' : ': MISMATCH between balance and ledger'}`,
);
const best = (runs: Round[]) => Math.max(...runs.map((r) => r.rps));
const ratio = best(oursRuns) / best(bareRuns);
const paired = median(oursRuns.map((o, i) => o.rps / (bareRuns[i]?.rps ?? Number.NaN)));
const cpuBare = median(bareRuns.map((r) => r.cpuUs));
const cpuOurs = median(oursRuns.map((r) => r.cpuUs));
const busyOurs = median(oursRuns.map((r) => r.busy));
const busyBare = median(bareRuns.map((r) => r.busy));
const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
console.log(
  `\nRATIO server / bare Fastify: best rounds ${pct(ratio)} (${Math.round(best(oursRuns))} vs ` +
    `${Math.round(best(bareRuns))} req/s); median of paired rounds ${pct(paired)} ` +
    `(per round: ${oursRuns.map((o, i) => pct(o.rps / (bareRuns[i]?.rps ?? Number.NaN))).join(', ')})`,
);
console.log(
  `CPU per request (median, server and load generator in this one process): ${cpuOurs.toFixed(0)} µs vs ` +
    `${cpuBare.toFixed(0)} µs bare (bare / server ${(cpuBare / cpuOurs).toFixed(2)})`,
);
goal(
  'server >= 60% of a bare Fastify route (#20: median of paired rounds)',
  paired >= 0.6,
  `${pct(paired)} of bare (best rounds ${pct(ratio)})`,
);
console.log(
  `Limited by: CPU of the one event loop (${(cpuOurs - cpuBare).toFixed(0)} µs more per request than bare, the ` +
    'WAL checkpointer thread included): mostly the charge (its ledger row in three b-trees and its share of a ' +
    'group commit of WAL frames); the tweet and its author come from an in-process cache kept exact by the ' +
    `write stamps of their tables. CPU busy ${(busyOurs * 100).toFixed(0)}% of the wall time ` +
    `(bare ${(busyBare * 100).toFixed(0)}%): checkpoints run off the event loop.`,
);
await bare.close();
await server.close();
rmSync(dir, { recursive: true, force: true });
