import { DRAW_PROCEDURE, entriesHash, filtersHash, newSeed, seedHash } from '@xsvc/sdk/draws';
import type { DrawEntry, DrawSettings } from './eligibility.js';
import type { DrawsTable } from './tables.js';

/** A draw's seed and its hash, fixed before any entry is read. */
export interface SeedCommitment {
  readonly seed: string;
  readonly seedHash: string;
  readonly committedAt: number;
}

/** A new random seed (32 bytes) and its SHA-256: the commitment a draw makes before reading entries. */
export async function commitSeed(now: number): Promise<SeedCommitment> {
  const seed = newSeed();
  return { seed, seedHash: await seedHash(seed), committedAt: now };
}

/**
 * The verification columns of a drawn draw: the procedure, the seed (revealed now that the winners are
 * drawn) with its hash and commit time, and the hashes of the entry list and of the request as stored.
 */
export async function revealed(
  commitment: SeedCommitment,
  settings: DrawSettings,
  entries: readonly DrawEntry[],
): Promise<
  Pick<DrawsTable, 'procedure' | 'seed' | 'seed_hash' | 'seed_committed_at' | 'entries_hash' | 'filters_hash'>
> {
  return {
    procedure: DRAW_PROCEDURE,
    seed: commitment.seed,
    seed_hash: commitment.seedHash,
    seed_committed_at: commitment.committedAt,
    entries_hash: await entriesHash(entries),
    // Hashed as it is stored (and shown): the JSON round trip of the request.
    filters_hash: await filtersHash(JSON.parse(JSON.stringify(settings)) as Record<string, unknown>),
  };
}
