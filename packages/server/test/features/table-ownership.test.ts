import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { serverFeatures } from '../../src/app/server.js';
import { openDatabase } from '../../src/core/db/database.js';
import { migrateToLatest } from '../../src/core/db/migrate.js';
import { CORE_TABLES } from '../../src/core/db/schema.js';
import { SIM_PLATFORM_TABLES } from '../../src/platform/simulated/index.js';
import { XAPI_PLATFORM_TABLES } from '../../src/platform/xapi/index.js';

/**
 * Every table has one owner (issue #13): a feature (`tables` of its `defineFeature`), a core mechanism
 * (`CORE_TABLES`, by folder under `core/`), the simulated platform (`SIM_PLATFORM_TABLES`) or the xapi
 * platform (`XAPI_PLATFORM_TABLES`, its filtered stream). Any code may
 * read any table through `Database`; only code in the owner's folder writes it.
 */

const SRC = join(import.meta.dirname, '../../src');

/** Every claim of a table: the table and the folder (under `src/`) of the part that claims it. */
function claims(): { table: string; owner: string }[] {
  return [
    ...serverFeatures().flatMap((f) =>
      (f.tables ?? []).map((table) => ({ table, owner: `features/${f.name}/` })),
    ),
    ...Object.entries(CORE_TABLES).flatMap(([folder, tables]) =>
      tables.map((table) => ({ table, owner: `core/${folder}/` })),
    ),
    ...SIM_PLATFORM_TABLES.map((table) => ({ table, owner: 'platform/simulated/' })),
    ...XAPI_PLATFORM_TABLES.map((table) => ({ table, owner: 'platform/xapi/' })),
  ];
}

/**
 * Writes that legitimately cross an owner's folder. Keep this list short: a new write to another part's
 * table belongs in a function of the owner (features call core; features reach each other through ports).
 */
const CROSS_WRITES: readonly { table: string; writer: string; why: string }[] = [
  {
    table: 'accounts',
    writer: 'core/billing/',
    why: 'the credit balance, lifetime counters, plan and auto top-up settings are columns of the account row',
  },
  {
    table: 'credit_ledger',
    writer: 'core/auth/',
    why: "createAccount writes the starting grant in the account's own transaction",
  },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * The writes of every source file outside the migrations (which create and seed every table): query-builder
 * calls with a literal table name, and raw SQL naming a known table. Writes through a table held in a
 * variable (`deleteFrom(table)`) are not seen.
 */
function writes(known: ReadonlySet<string>): { table: string; file: string }[] {
  const builder = /\.(?:insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(\s*['"`]([a-z_]+)/g;
  const raw = /\b(?:insert\s+into|delete\s+from|update|truncate(?:\s+table)?)\s+"?([a-z_]+)"?/gi;
  const found: { table: string; file: string }[] = [];
  for (const path of sourceFiles(SRC)) {
    const file = relative(SRC, path).split('\\').join('/');
    if (file.startsWith('core/db/migrations/')) continue;
    const text = readFileSync(path, 'utf8');
    for (const m of text.matchAll(builder)) found.push({ table: m[1] as string, file });
    for (const m of text.matchAll(raw)) {
      const table = (m[1] as string).toLowerCase();
      if (known.has(table)) found.push({ table, file });
    }
  }
  return found;
}

describe('table ownership', () => {
  it('claims no table twice', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const { table, owner } of claims()) {
      const first = seen.get(table);
      if (first !== undefined) twice.push(`${table}: ${first} and ${owner}`);
      else seen.set(table, owner);
    }
    expect(twice).toEqual([]);
  });

  it('gives every table the migrations create exactly one owner, and claims no other table', async () => {
    const database = await openDatabase(':memory:');
    try {
      await migrateToLatest(database);
      const rows = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(
        database.db,
      );
      // SQLite's own tables and Kysely's migration bookkeeping belong to no part of the server.
      const created = rows.rows
        .map((r) => r.name)
        .filter((n) => !n.startsWith('sqlite_') && !n.startsWith('kysely_'))
        .sort();
      expect(created.length).toBeGreaterThan(50);
      const claimed = claims().map((c) => c.table);
      expect(created.filter((t) => !claimed.includes(t))).toEqual([]);
      expect([...new Set(claimed)].filter((t) => !created.includes(t))).toEqual([]);
      for (const t of created)
        expect(
          claimed.filter((c) => c === t),
          t,
        ).toHaveLength(1);
    } finally {
      await database.close();
    }
  });

  it("writes every table only in its owner's folder (the exceptions listed above aside)", () => {
    const owners = new Map(claims().map((c) => [c.table, c.owner]));
    const found = writes(new Set(owners.keys()));
    expect(found.length).toBeGreaterThan(60);
    const allowed = (table: string, file: string) =>
      CROSS_WRITES.some((x) => x.table === table && file.startsWith(x.writer));
    const stray = found
      .filter(({ table, file }) => {
        const owner = owners.get(table);
        return owner === undefined || !(file.startsWith(owner) || allowed(table, file));
      })
      .map(({ table, file }) => `${file} writes ${table} (owner: ${owners.get(table) ?? 'none'})`);
    expect([...new Set(stray)]).toEqual([]);
    // Every exception is still needed, and is not a write by the owner itself.
    for (const x of CROSS_WRITES) {
      expect(owners.get(x.table), x.why).not.toBe(x.writer);
      expect(
        found.some((w) => w.table === x.table && w.file.startsWith(x.writer)),
        `${x.writer} no longer writes ${x.table}`,
      ).toBe(true);
    }
  });

  it('loads every augmentation of Database in app/database.ts (the published declarations take it from there)', () => {
    const loaded = readFileSync(join(SRC, 'app/database.ts'), 'utf8');
    const augmenting = sourceFiles(SRC)
      .filter((path) => /^declare module '[./]+core\/db\/schema\.js'/m.test(readFileSync(path, 'utf8')))
      .map((path) => relative(join(SRC, 'app'), path).split('\\').join('/').replace(/\.ts$/, '.js'));
    expect(augmenting.length).toBeGreaterThan(5);
    expect(augmenting.filter((f) => !loaded.includes(`import '${f}';`))).toEqual([]);
  });
});
