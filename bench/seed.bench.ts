/**
 * How long the simulated network takes to seed, per size, on SQLite (the server's default engine): the
 * first start of `xsvc-server` pays this once. Printed for the record; the floor is an empty migration.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateToLatest, openDatabase, seedNetwork } from '@xsvc/server';
import { table } from './src/stats.js';

const dir = mkdtempSync(join(tmpdir(), 'xsvc-seed-'));
const rows: (string | number)[][] = [['size', 'seconds', 'database MB']];
for (const size of ['tiny', 'small', 'default'] as const) {
  const file = join(dir, `${size}.db`);
  const database = await openDatabase(file);
  await migrateToLatest(database);
  const t = performance.now();
  await seedNetwork(database.db, { size, seed: 42, now: Date.UTC(2026, 3, 29, 12) });
  const s = (performance.now() - t) / 1000;
  await database.close();
  const mb = (statSync(file).size + (statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0)) / 1e6;
  rows.push([size, s.toFixed(1), mb.toFixed(0)]);
}
console.log('\nSeeding the simulated network on SQLite (WAL)');
table(rows);
rmSync(dir, { recursive: true, force: true });
