import { randomBytes } from 'node:crypto';
import { limits } from '@xsvc/sdk/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { XsvcServer } from '../../src/app/app.js';
import { bootstrapOwner } from '../../src/app/bootstrap.js';
import { createServer } from '../../src/app/server.js';
import { parseConfig } from '../../src/core/config.js';
import { type Db, openDatabase } from '../../src/core/db/database.js';
import { migrateToLatest } from '../../src/core/db/migrate.js';
import { PG_URL } from '../helpers/server.js';

/**
 * Issue #25, item 4: the read tier (spec 8.1) holds on Postgres under sustained load across
 * window boundaries, with two server instances on one schema and 50 clients. Real time, real sockets: the
 * clock is the system clock, since the fault this guards against (a request stamped in one second reaching
 * the counter after another request opened the next window) comes from the timing of real concurrent
 * requests. `XSVC_TEST_RATE_SECONDS` lengthens the run (default 10 s, the issue's minimum).
 */
const SECONDS = Math.max(10, Number(process.env.XSVC_TEST_RATE_SECONDS ?? 10));
const CLIENTS = 50;
/**
 * The read tier's window (1 s) with a limit of 20: the same limiter and windows as spec 8.1's 300 (or 60,
 * older), at a rate that two in-process instances exceed several times over even on a busy test machine, so
 * that every second is saturated and the limit is what holds the count down.
 */
const LIMIT = 20;
const TIERS = {
  ...limits.rateLimits.newer,
  read: { ...limits.rateLimits.newer.read, limit: LIMIT },
};

/** One answered request: when it was sent and answered (client clock, the same as the servers'), its status and remaining count. */
interface Sample {
  sent: number;
  answered: number;
  status: number;
  remaining: number | undefined;
}

/**
 * Logs every row version the limiter writes (one per counted request: the insert or update of its
 * window) into `rl_log` of the test schema, so the test reads what each window counted from the database
 * itself rather than inferring it from the clients' clocks.
 */
async function logCounts(db: Db, schema: string): Promise<void> {
  const table = sql.id(schema, 'rl_log');
  const fn = sql.id(schema, 'rl_log_row');
  await sql`create table ${table} (bucket text not null, window_start bigint not null, count bigint not null)`.execute(
    db.db,
  );
  await sql`create function ${fn}() returns trigger language plpgsql as $$
    begin insert into ${table} values (new.bucket, new.window_start, new.count); return new; end $$`.execute(
    db.db,
  );
  await sql`create trigger rl_log after insert or update on ${sql.id(schema, 'rate_limit_counters')}
    for each row execute function ${fn}()`.execute(db.db);
}

describe('rate limits across two instances on one Postgres, sustained', () => {
  const schema = `rl_${randomBytes(6).toString('hex')}`;
  const dbs: Db[] = [];
  const servers: XsvcServer[] = [];
  const urls: string[] = [];
  const key = `svc_${randomBytes(32).toString('hex')}`;
  let accountId = '';

  beforeAll(async () => {
    const cfg = parseConfig({
      logLevel: 'silent',
      seedSize: 'tiny',
      keyFile: '',
      port: 0,
    });
    for (let i = 0; i < 2; i++) {
      const db = await openDatabase(PG_URL, { pgSchema: schema, poolSize: 8 });
      dbs.push(db);
      if (i === 0) {
        await migrateToLatest(db);
        accountId = (await bootstrapOwner(db, { ...cfg, bootstrapApiKey: key }, Date.now())).accountId;
        await logCounts(db, schema);
      }
      const server = await createServer(cfg, {
        database: db,
        rateLimits: TIERS,
        monitors: { autoStart: false },
        extractions: { autoStart: false },
      });
      servers.push(server);
      urls.push(await server.app.listen({ host: '127.0.0.1', port: 0 }));
    }
  });

  afterAll(async () => {
    for (const s of servers) await s.close();
    const admin = await openDatabase(PG_URL, { poolSize: 1 });
    await sql.raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).execute(admin.db);
    await admin.close();
  });

  it(`serves at most ${LIMIT} reads in any second for ${SECONDS} s of 50 clients`, async () => {
    // Start on a second boundary, so the run covers whole windows.
    await new Promise((r) => setTimeout(r, 1_000 - (Date.now() % 1_000)));
    const end = Date.now() + SECONDS * 1_000;
    const samples: Sample[] = [];
    const client = async (n: number) => {
      const url = `${urls[n % urls.length]}/api/v1/account`;
      while (Date.now() < end) {
        const sent = Date.now();
        const res = await fetch(url, { headers: { 'x-api-key': key } });
        await res.arrayBuffer();
        const remaining = res.headers.get('x-ratelimit-remaining');
        samples.push({
          sent,
          answered: Date.now(),
          status: res.status,
          remaining: remaining === null ? undefined : Number(remaining),
        });
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));

    expect(samples.every((s) => s.status === 200 || s.status === 429)).toBe(true);
    const served = samples.filter((s) => s.status === 200);
    // The database's own account of what was counted: one logged row version per counted request, each
    // with the window it was counted in.
    const log = await sql<{ window_start: string; n: string }>`
      select window_start, count(*) as n from ${sql.id(schema, 'rl_log')}
      where bucket = ${`${accountId}:read`} group by window_start order by window_start`.execute(dbs[0]!.db);
    const perSecond = log.rows.map((r) => Number(r.n));
    console.info(`${samples.length} requests, ${served.length} served; per second: ${perSecond.join(' ')}`);
    expect(perSecond.reduce((a, b) => a + b, 0)).toBe(served.length);
    expect(perSecond.length).toBeGreaterThanOrEqual(SECONDS);
    expect(Math.max(...perSecond), `served per second: ${perSecond.join(' ')}`).toBeLessThanOrEqual(LIMIT);
    // The load was sustained: most seconds had refusals, so the limit was what held the count down.
    const refusedSeconds = new Set(
      samples.filter((s) => s.status === 429).map((s) => Math.floor(s.sent / 1_000)),
    );
    expect(refusedSeconds.size).toBeGreaterThanOrEqual(SECONDS / 2);
    // A window opens once per second: the first request of a window leaves `LIMIT - 1`.
    const fresh = served.filter((s) => s.remaining === LIMIT - 1).length;
    expect(fresh, 'fresh windows').toBeLessThanOrEqual(perSecond.length);
  }, 60_000);
});
