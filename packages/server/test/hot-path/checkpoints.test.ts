import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/core/db/database.js';
import { FALLBACK_AUTOCHECKPOINT_PAGES } from '../../src/core/db/wal-checkpointer.js';

const dir = mkdtempSync(join(tmpdir(), 'xsvc-wal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Waits (bounded) for a condition a background thread brings about. */
async function eventually(check: () => boolean, limitMs = 10_000): Promise<void> {
  const until = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('WAL checkpoints off the event loop (SQLite file)', () => {
  it('copies committed pages into the database file from the worker, not from the writer', async () => {
    const file = join(dir, 'bg.db');
    const database = await openDatabase(file);
    const sqlite = database.sqlite;
    if (!sqlite) throw new Error('SQLite expected');
    try {
      expect(Number(sqlite.pragma('wal_autocheckpoint', { simple: true }))).toBe(
        FALLBACK_AUTOCHECKPOINT_PAGES,
      );
      await sql`create table blobs (id integer primary key, body text not null)`.execute(database.db);
      const before = statSync(file).size;
      // ~2 MiB of new pages, far below the fallback: only the worker can move them into the file.
      const insert = sqlite.prepare('insert into blobs (body) values (?)');
      sqlite.transaction(() => {
        for (let i = 0; i < 500; i++) insert.run('x'.repeat(4_000));
      })();
      await eventually(() => statSync(file).size > before + 1_000_000);
      expect(Number((sqlite.prepare('select count(*) as n from blobs').get() as { n: bigint }).n)).toBe(500);
    } finally {
      await database.close();
    }
    const reopened = await openDatabase(file, { backgroundCheckpoints: false });
    try {
      const n = await sql<{ n: bigint }>`select count(*) as n from blobs`.execute(reopened.db);
      expect(Number(n.rows[0]?.n)).toBe(500);
      // Without the worker, the connection checkpoints by itself at SQLite's default.
      expect(Number(reopened.sqlite?.pragma('wal_autocheckpoint', { simple: true }))).toBe(1000);
    } finally {
      await reopened.close();
    }
  });

  it('runs no worker for an in-memory database', async () => {
    const database = await openDatabase(':memory:');
    try {
      expect(Number(database.sqlite?.pragma('wal_autocheckpoint', { simple: true }))).toBe(1000);
    } finally {
      await database.close();
    }
  });

  it('lets a script that opens and closes a file database finish its top-level await', () => {
    // The worker is unref'd; closing must still wait for it, or the loop empties first and Node exits 13.
    const module = pathToFileURL(resolve(import.meta.dirname, '../../src/core/db/database.ts')).href;
    const script = `import { openDatabase } from ${JSON.stringify(module)};
const d = await openDatabase(${JSON.stringify(join(dir, 'script.db'))});
await d.close();
console.log('closed');`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('closed');
    expect(r.status).toBe(0);
  });
});
