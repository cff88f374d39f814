import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { type Db, openDatabase } from '../../src/core/db/database.js';
import { databaseFault, describeFault } from '../../src/core/db/faults.js';
import { migrateToLatest } from '../../src/core/db/migrate.js';
import { httpErrorOf } from '../../src/core/http/error-handler.js';
import { enqueue, type JobKind, JobsEngine } from '../../src/core/jobs/index.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('databaseFault: the database being away, told from a bug', () => {
  it('knows connection losses and refusals of Postgres and the network', () => {
    for (const e of [
      withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
      withCode('ECONNRESET'),
      withCode('57P01', 'terminating connection due to administrator command'),
      withCode('57P02'),
      withCode('57P03', 'the database system is starting up'),
      withCode('08006'),
      withCode('25006', 'cannot execute INSERT in a read-only transaction'),
      new Error('Connection terminated unexpectedly'),
      new Error('Client has encountered a connection error and is not queryable'),
      new Error('timeout exceeded when trying to connect'),
      new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], ''),
      new Error('migration 0001 failed', { cause: withCode('57P01') }),
    ])
      expect(databaseFault(e)?.kind, String(e)).toBe('connection');
  });

  it('knows a SQLite file that cannot take writes now', () => {
    for (const code of [
      'SQLITE_FULL',
      'SQLITE_IOERR_WRITE',
      'SQLITE_READONLY',
      'SQLITE_BUSY',
      'SQLITE_CANTOPEN',
    ])
      expect(databaseFault(withCode(code))?.kind).toBe('storage');
    expect(describeFault(databaseFault(withCode('SQLITE_FULL', 'database or disk is full')) as never)).toBe(
      'SQLITE_FULL: database or disk is full',
    );
  });

  it('leaves bugs and the caller’s mistakes alone', () => {
    for (const e of [
      withCode('23505', 'duplicate key value violates unique constraint'),
      withCode('42P01', 'relation "nope" does not exist'),
      withCode('SQLITE_CONSTRAINT_UNIQUE'),
      withCode('SQLITE_ERROR', 'no such table: nope'),
      new TypeError('x is undefined'),
      'a string',
      null,
    ])
      expect(databaseFault(e), String(e)).toBeUndefined();
  });

  it('answers 503 service_unavailable with Retry-After, never 500', () => {
    const err = httpErrorOf(withCode('57P01', 'terminating connection due to administrator command'));
    expect(err?.status).toBe(503);
    expect(err?.code).toBe('service_unavailable');
    expect(Number(err?.headers['retry-after'])).toBeGreaterThan(0);
    expect(err?.extra.retryAfter).toBe(Number(err?.headers['retry-after']));
    expect(httpErrorOf(withCode('23505'))).toBeUndefined();
  });
});

describe('SQLite: a transaction SQLite rolled back itself', () => {
  let database: Db;
  beforeAll(async () => {
    database = await openDatabase(':memory:');
    await sql`create table t (x integer)`.execute(database.db);
  });
  afterAll(() => database.close());

  it('fails with its own error, not "cannot rollback - no transaction is active"', async () => {
    const sqlite = database.sqlite;
    if (!sqlite) throw new Error('not SQLite');
    const full = withCode('SQLITE_FULL', 'database or disk is full');
    const attempt = database.db.transaction().execute(async (trx) => {
      await sql`insert into t values (1)`.execute(trx);
      // What SQLite does on SQLITE_FULL (and IOERR, NOMEM…): the whole transaction is rolled back before the
      // statement's error reaches the caller.
      sqlite.exec('rollback');
      throw full;
    });
    await expect(attempt).rejects.toBe(full);
    expect(sqlite.inTransaction).toBe(false);
    // Nothing of the transaction was kept, and the connection takes the next one.
    await database.db.transaction().execute(async (trx) => {
      await sql`insert into t values (2)`.execute(trx);
    });
    const rows = await sql<{ x: bigint }>`select x from t`.execute(database.db);
    expect(rows.rows.map((r) => Number(r.x))).toEqual([2]);
  });

  it('still rolls back a transaction that is open', async () => {
    await expect(
      database.db.transaction().execute(async (trx) => {
        await sql`insert into t values (3)`.execute(trx);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    const rows = await sql<{ n: bigint }>`select count(*) as n from t where x = 3`.execute(database.db);
    expect(Number(rows.rows[0]?.n)).toBe(0);
  });
});

describe('the jobs engine while the database is away', () => {
  let database: Db;
  beforeAll(async () => {
    database = await openDatabase(':memory:');
    await migrateToLatest(database);
  });
  afterAll(() => database.close());

  it('keeps outcomes it could not write and writes them once the database is back: the work is not done twice', async () => {
    const clock = new ManualClock(1_000_000);
    const warnings: string[] = [];
    const engine = new JobsEngine(database, clock, {
      log: { error: (_d, m) => warnings.push(m), warn: (_d, m) => warnings.push(m) },
    });
    const runs: string[] = [];
    const settled: string[] = [];
    let away = 2;
    const kind: JobKind = {
      name: 'faulty',
      batchSize: 8,
      concurrency: 8,
      leaseMs: 10_000,
      async run(jobs) {
        for (const j of jobs) runs.push(j.key ?? j.id);
        return jobs.map(() => ({ type: 'done' }));
      },
      async settle(_trx, items) {
        // The first two writes meet a database that is away (the transaction commits nothing).
        if (away-- > 0) throw withCode('57P01', 'terminating connection due to administrator command');
        for (const s of items) settled.push(s.job.key ?? s.job.id);
      },
    };
    engine.register(kind);
    await enqueue(database.db, [{ kind: 'faulty', key: 'one' }], clock.now());
    await engine.runDue();
    expect(runs).toEqual(['one']);
    expect(settled).toEqual(['one']);
    const left = await database.db.selectFrom('jobs').select('id').where('kind', '=', 'faulty').execute();
    expect(left).toEqual([]);
    expect(warnings).toEqual([
      'jobs: faulty: writing outcomes: the database is unavailable; pausing and trying again',
      'jobs: faulty: writing outcomes: the database is back; resumed',
    ]);
  });
});
