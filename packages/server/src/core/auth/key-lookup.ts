import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { prepared, syncSqlite, writeStamp } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { sha256 } from './keys.js';

/** What a key lookup reads: the key, its account, whether it is revoked, whether the account is the owner. */
export interface KeyRow {
  readonly keyId: string;
  readonly accountId: string;
  readonly revokedAt: bigint | number | null;
  readonly isOwner: bigint | number;
}

const KEY_BY_HASH = `select k.id as keyId, k.account_id as accountId, k.revoked_at as revokedAt, a.is_owner as isOwner
  from api_keys k join accounts a on a.id = k.account_id where k.hash = ?`;

/** Most keys a cache holds; the oldest entry goes first. */
const CACHE_MAX = 10_000;
/**
 * How long a cached key is trusted without reading it again (ms). In-process writes invalidate it at once
 * (`writeStamp`); this bounds how long a write by another process on the same SQLite file (a tool writing
 * the database directly; the server itself is meant to be its one owner) can go unseen.
 */
export const KEY_CACHE_TTL_MS = 1_000;

interface KeyCache {
  /** The write stamp of `api_keys` and `accounts` (see `writeStamp`). */
  readonly stamp: () => number;
  /** By presented key: the row found, the stamp and the time it was read at. */
  readonly entries: Map<string, { row: KeyRow; stamp: number; readAt: number }>;
}

/** The key cache of each SQLite database; null where there is none (Postgres, a transaction's handle). */
const caches = new WeakMap<Kysely<Database>, KeyCache | null>();

function cacheOf(db: Kysely<Database>): KeyCache | undefined {
  let cache = caches.get(db);
  if (cache === undefined) {
    const stamp = writeStamp(db, ['api_keys', 'accounts']);
    cache = stamp ? { stamp, entries: new Map() } : null;
    caches.set(db, cache);
  }
  return cache ?? undefined;
}

/**
 * The stored key a presented API key hashes to, with its account. On Postgres it is read on every call:
 * other server instances share the database, so a revocation written by any of them takes effect on the
 * next request. On SQLite (one process owns the file) the rows found are kept in a bounded in-process cache,
 * valid while no statement has written `api_keys` or `accounts` since they were read (`writeStamp`): a
 * revocation, a new key, a change of owner or a deleted account invalidates them before it runs, so it takes
 * effect on the very next request; and no entry is trusted longer than {@link KEY_CACHE_TTL_MS}. The cache
 * is looked up by the presented key, so a hit costs no hashing; a miss hashes it and runs one cached
 * prepared statement synchronously.
 */
export async function findKey(db: Kysely<Database>, key: string, now: number): Promise<KeyRow | undefined> {
  const cache = cacheOf(db);
  // Taken before the read: a write during an asynchronous read leaves the entry already stale.
  const stamp = cache?.stamp() ?? 0;
  const hit = cache?.entries.get(key);
  if (hit && hit.stamp === stamp && now >= hit.readAt && now - hit.readAt < KEY_CACHE_TTL_MS) return hit.row;
  const hash = sha256(key);
  const sqlite = syncSqlite(db);
  const row = sqlite
    ? (prepared(sqlite, KEY_BY_HASH).get(hash) as KeyRow | undefined)
    : await db
        .selectFrom('api_keys')
        .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
        .select([
          'api_keys.id as keyId',
          'api_keys.account_id as accountId',
          'api_keys.revoked_at as revokedAt',
          'accounts.is_owner as isOwner',
        ])
        .where('api_keys.hash', '=', hash)
        .executeTakeFirst();
  if (cache && row) {
    cache.entries.delete(key);
    if (cache.entries.size >= CACHE_MAX) cache.entries.delete(cache.entries.keys().next().value as string);
    cache.entries.set(key, { row, stamp, readAt: now });
  }
  return row;
}

const touchStatements = new WeakMap<SQLite.Database, SQLite.Statement>();

/**
 * Records when a key was last used. On SQLite the update runs on a statement of its own outside the
 * write stamp: `last_used_at` is no part of a cached key, so writing it must not empty the cache.
 */
export async function touchKey(db: Kysely<Database>, keyId: string, now: number): Promise<void> {
  const sqlite = syncSqlite(db);
  if (sqlite) {
    let stmt = touchStatements.get(sqlite);
    if (!stmt) {
      stmt = sqlite.prepare('update api_keys set last_used_at = ? where id = ?');
      touchStatements.set(sqlite, stmt);
    }
    stmt.run(now, keyId);
    return;
  }
  await db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', keyId).execute();
}
