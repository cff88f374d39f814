import {
  COMMITTED_DRAW_PROCEDURE,
  committedSeed,
  DRAW_PROCEDURE,
  entriesHash,
  entropyHash,
  filtersHash,
  newSeed,
  seedHash,
} from '@xsvc/sdk/draws';
import type { Kysely } from 'kysely';
import { num } from '../../core/db/database.js';
import type { Database } from '../../core/db/schema.js';
import { HttpError } from '../../core/http/errors.js';
import type { DrawEntry, DrawSettings } from './eligibility.js';
import type { DrawCommitmentsTable, DrawsTable } from './tables.js';

/** A draw's seed and its hash, fixed before any entry is read. */
export interface SeedCommitment {
  readonly seed: string;
  readonly seedHash: string;
  readonly committedAt: number;
}

/**
 * What a committed draw adds (`xsvc-draw-v2`): the organiser's commitment and entropy; the winners are
 * drawn with `pickSeed`, the server seed mixed with the entropy.
 */
export interface OrganiserCommitment {
  readonly commitmentId: string;
  readonly entropy: string;
  readonly entropyHash: string | null;
  readonly pickSeed: string;
}

/** A new random seed (32 bytes) and its SHA-256: the commitment a draw makes before reading entries. */
export async function commitSeed(now: number): Promise<SeedCommitment> {
  const seed = newSeed();
  return { seed, seedHash: await seedHash(seed), committedAt: now };
}

/** A new commitment row of an account: a fresh seed, its hash, and the organiser's entropy hash if any. */
export async function newCommitmentRow(
  id: string,
  accountId: string,
  entropyHashHex: string | undefined,
  now: number,
): Promise<DrawCommitmentsTable> {
  const { seed, seedHash: hash } = await commitSeed(now);
  return {
    id,
    account_id: accountId,
    seed,
    seed_hash: hash,
    entropy_hash: entropyHashHex ?? null,
    created_at: now,
    draw_id: null,
  };
}

/**
 * The commitment a draw request names, checked: the caller's own, not used by another draw, and, when it
 * committed to an entropy hash, given that entropy. Throws 400 `invalid_input` naming the field otherwise.
 */
export async function openCommitment(
  db: Kysely<Database>,
  accountId: string,
  commitmentId: string,
  entropy: string,
): Promise<{ seed: SeedCommitment; organiser: OrganiserCommitment }> {
  const row = await db
    .selectFrom('draw_commitments')
    .selectAll()
    .where('id', '=', commitmentId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (!row) throw new HttpError('invalid_input', `commitmentId: no draw commitment ${commitmentId} of yours`);
  if (row.draw_id !== null)
    throw new HttpError(
      'invalid_input',
      `commitmentId: commitment ${commitmentId} was used by draw ${row.draw_id}; make a new one per draw`,
    );
  if (row.entropy_hash !== null && (await entropyHash(entropy)) !== row.entropy_hash)
    throw new HttpError(
      'invalid_input',
      `organiserEntropy: does not hash to the commitment's entropyHash ${row.entropy_hash}`,
    );
  return {
    seed: { seed: row.seed, seedHash: row.seed_hash, committedAt: num(row.created_at) },
    organiser: {
      commitmentId,
      entropy,
      entropyHash: row.entropy_hash,
      pickSeed: await committedSeed(row.seed, entropy),
    },
  };
}

/**
 * Marks a commitment used by `drawId`, in the transaction that stores the draw; a commitment another draw
 * took meanwhile is 400 `invalid_input` and rolls the draw (and its charge) back.
 */
export async function consumeCommitment(
  trx: Kysely<Database>,
  accountId: string,
  commitmentId: string,
  drawId: string,
): Promise<void> {
  const r = await trx
    .updateTable('draw_commitments')
    .set({ draw_id: drawId })
    .where('id', '=', commitmentId)
    .where('account_id', '=', accountId)
    .where('draw_id', 'is', null)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1)
    throw new HttpError(
      'invalid_input',
      `commitmentId: commitment ${commitmentId} was used by another draw meanwhile`,
    );
}

/**
 * The verification columns of a drawn draw: the procedure, the seed (revealed now that the winners are
 * drawn) with its hash and commit time, the hashes of the entry list and of the request as stored, and, for
 * a committed draw, the organiser's commitment and entropy.
 */
export async function revealed(
  commitment: SeedCommitment,
  settings: DrawSettings,
  entries: readonly DrawEntry[],
  organiser?: OrganiserCommitment,
): Promise<
  Pick<
    DrawsTable,
    | 'procedure'
    | 'seed'
    | 'seed_hash'
    | 'seed_committed_at'
    | 'entries_hash'
    | 'filters_hash'
    | 'commitment_id'
    | 'organiser_entropy'
    | 'organiser_entropy_hash'
  >
> {
  return {
    procedure: organiser ? COMMITTED_DRAW_PROCEDURE : DRAW_PROCEDURE,
    seed: commitment.seed,
    seed_hash: commitment.seedHash,
    seed_committed_at: commitment.committedAt,
    entries_hash: await entriesHash(entries),
    // Hashed as it is stored (and shown): the JSON round trip of the request.
    filters_hash: await filtersHash(JSON.parse(JSON.stringify(settings)) as Record<string, unknown>),
    commitment_id: organiser?.commitmentId ?? null,
    organiser_entropy: organiser?.entropy ?? null,
    organiser_entropy_hash: organiser?.entropyHash ?? null,
  };
}
