import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { SEALED_PREFIX, type SecretKeys, type SecretPurpose } from './secret-box.js';

/**
 * A column that holds values sealed at rest, declared by the code that owns its table (a feature's
 * `sealedColumns`, or core's list), so that a start can seal what an older server stored in clear and seal
 * again, under the current key, what a previous key sealed (a rotation).
 */
export interface SealedColumn {
  readonly table: string;
  readonly column: string;
  /** The table's primary key column. */
  readonly key: string;
  readonly purpose: SecretPurpose;
  /**
   * How a value holds its sealed part: `sealed` (the value itself; null allowed), `sealed-or-plain` (the
   * value itself; a value without the `v1.` prefix is plain text from before sealing, sealed at start), or
   * `json-sealed` (`{"sealed":"v1…"}`; any other JSON is an answer from before sealing, sealed at start).
   */
  readonly format: 'sealed' | 'sealed-or-plain' | 'json-sealed';
}

const JSON_PREFIX = '{"sealed":';

/** What a start changed: values sealed from clear, and values sealed again under the current key. */
export interface ResealReport {
  sealed: number;
  resealed: number;
}

/**
 * Seals the values of `columns` that are in clear (from before sealing) and, when the keys have previous
 * ones, seals again under the current key what they sealed. Each update is conditional on the value read
 * (another instance doing the same at once changes nothing twice). Without previous keys only the values
 * in clear are read (a `like` on the prefix), so an ordinary start reads almost nothing. A value no key
 * opens is left as it is (its reader reports it).
 */
export async function resealAtRest(
  database: Db,
  keys: SecretKeys,
  columns: readonly SealedColumn[],
): Promise<ResealReport> {
  const report: ResealReport = { sealed: 0, resealed: 0 };
  const rotating = keys.previous.length > 0;
  for (const c of columns) {
    if (c.format === 'sealed' && !rotating) continue;
    const box = keys.box(c.purpose);
    const prefix = c.format === 'json-sealed' ? JSON_PREFIX : SEALED_PREFIX;
    const col = sql.ref(c.column);
    const onlyPlain = rotating ? sql`` : sql`and ${col} not like ${`${prefix}%`}`;
    const rows = await sql<{ k: string; v: string }>`
      select ${sql.ref(c.key)} as k, ${col} as v from ${sql.table(c.table)}
      where ${col} is not null ${onlyPlain}`.execute(database.db);
    for (const { k, v } of rows.rows) {
      const next = nextValue(c, v, box);
      if (next === undefined) continue;
      await sql`update ${sql.table(c.table)} set ${col} = ${next.value}
        where ${sql.ref(c.key)} = ${k} and ${col} = ${v}`.execute(database.db);
      report[next.kind]++;
    }
  }
  return report;
}

function nextValue(
  c: SealedColumn,
  stored: string,
  box: ReturnType<SecretKeys['box']>,
): { value: string; kind: keyof ResealReport } | undefined {
  if (c.format === 'json-sealed') {
    const inner = sealedPart(stored);
    if (inner === undefined) return { value: JSON.stringify({ sealed: box.seal(stored) }), kind: 'sealed' };
    const again = reseal(inner, box);
    return again === undefined ? undefined : { value: JSON.stringify({ sealed: again }), kind: 'resealed' };
  }
  if (!stored.startsWith(SEALED_PREFIX)) {
    if (c.format === 'sealed') return undefined;
    return { value: box.seal(stored), kind: 'sealed' };
  }
  const again = reseal(stored, box);
  return again === undefined ? undefined : { value: again, kind: 'resealed' };
}

/** The sealed value inside `{"sealed":"…"}`, or undefined for any other text. */
function sealedPart(stored: string): string | undefined {
  if (!stored.startsWith(JSON_PREFIX)) return undefined;
  try {
    const parsed = JSON.parse(stored) as { sealed?: unknown };
    return typeof parsed.sealed === 'string' ? parsed.sealed : undefined;
  } catch {
    return undefined;
  }
}

/** `sealed` under the current key when a previous key sealed it; undefined when it needs nothing (or no key opens it). */
function reseal(sealed: string, box: ReturnType<SecretKeys['box']>): string | undefined {
  try {
    const { plain, current } = box.openWith(sealed);
    return current ? undefined : box.seal(plain);
  } catch {
    return undefined;
  }
}
