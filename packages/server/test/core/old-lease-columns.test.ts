/**
 * Migration 0021: the lease columns the jobs table replaced are gone on both engines, and the rows that
 * used to carry them are written without them.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import * as m0021 from '../../src/core/db/migrations/0021-old-lease-columns.js';
import { ENGINES, tableColumns, useMigratedDatabase } from '../helpers/server.js';

const DROPPED: Record<string, readonly string[]> = {
  webhook_deliveries: ['lease_owner', 'lease_until'],
  extraction_jobs: ['lease_owner', 'lease_until'],
  coverage_walks: ['lease_owner', 'lease_until'],
  monitor_shards: ['owner', 'lease_expires_at'],
};

describe.each(ENGINES)('old lease columns (%s)', (engine) => {
  const database = useMigratedDatabase(engine);

  it('are dropped from every table that had them, the other columns kept', async () => {
    for (const [table, dropped] of Object.entries(DROPPED)) {
      const cols = await tableColumns(database(), table);
      expect(cols.length, table).toBeGreaterThan(2);
      for (const c of dropped) expect(cols, `${table}.${c}`).not.toContain(c);
    }
    expect(await tableColumns(database(), 'jobs')).toEqual(
      expect.arrayContaining(['lease_owner', 'lease_until']),
    );
  });

  it('leave the index that named them gone too', async () => {
    const indexes =
      database().dialect === 'sqlite'
        ? await sql<{ name: string }>`select name from pragma_index_list('extraction_jobs')`.execute(
            database().db,
          )
        : await sql<{ name: string }>`
            select indexname as name from pg_indexes
            where schemaname = current_schema() and tablename = 'extraction_jobs'`.execute(database().db);
    const names = indexes.rows.map((r) => r.name);
    expect(names).toContain('extraction_jobs_account');
    expect(names).not.toContain('extraction_jobs_running');
  });

  it('come back on the way down, and go again on the way up', async () => {
    await m0021.down(database().db);
    for (const [table, dropped] of Object.entries(DROPPED)) {
      expect(await tableColumns(database(), table)).toEqual(expect.arrayContaining([...dropped]));
    }
    await m0021.up(database().db);
    for (const [table, dropped] of Object.entries(DROPPED)) {
      const cols = await tableColumns(database(), table);
      for (const c of dropped) expect(cols, `${table}.${c}`).not.toContain(c);
    }
  });
});
