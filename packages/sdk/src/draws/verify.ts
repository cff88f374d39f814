import {
  COMMITTED_DRAW_PROCEDURE,
  committedSeed,
  DRAW_PROCEDURE,
  type DrawEntryFacts,
  drawPicks,
  entriesHash,
  entropyHash,
  filtersHash,
  seedHash,
} from './procedure.js';

/** A winner or backup of a draw, as `getDraw` shows it. */
export interface DrawWinner {
  readonly position: number;
  readonly authorUsername: string;
  readonly tweetId: string;
  readonly isBackup: boolean;
}

/**
 * What a verification reads of a draw: the answer of `getDraw` (`DrawWithWinners` of the contract), by
 * structure, so that this entry point does not depend on the contract's schemas.
 */
export interface VerifiableDraw {
  readonly draw: {
    readonly totalEntries: number;
    readonly validEntries: number;
    readonly verification?:
      | {
          readonly procedure: string;
          readonly seedHash: string;
          readonly seed?: string | undefined;
          readonly entriesHash: string;
          readonly filters: Readonly<Record<string, unknown>>;
          readonly filtersHash: string;
          /** A committed draw (`xsvc-draw-v2`): the organiser's commitment and entropy. */
          readonly commitmentId?: string | undefined;
          readonly organiserEntropy?: string | undefined;
          readonly organiserEntropyHash?: string | undefined;
        }
      | undefined;
  };
  readonly winners: readonly DrawWinner[];
}

/** An entry as the JSON export of a draw's entries holds it (`exportDraw`, `type=entries`, `format=json`). */
export interface ExportedDrawEntry extends DrawEntryFacts {
  readonly authorUsername: string;
  readonly valid: boolean;
  /** The position among the winners and backups, when the entry won. */
  readonly winnerPosition?: number | undefined;
  readonly isBackup?: boolean | undefined;
}

/**
 * What the organiser published before the giveaway (the answer of `createDrawCommitment`, or the hashes
 * alone): a verification with it also checks that the draw used exactly that commitment.
 */
export interface PublishedCommitment {
  /** The commitment's id. */
  readonly id?: string | undefined;
  /** The server seed's hash the commitment showed. */
  readonly seedHash?: string | undefined;
  /** The hash of the organiser's entropy, when the organiser committed to it too. */
  readonly entropyHash?: string | undefined;
}

/** What one step of a verification found. */
export interface DrawCheck {
  readonly name:
    | 'commitment'
    | 'published'
    | 'seed'
    | 'entropy'
    | 'entries'
    | 'filters'
    | 'counts'
    | 'winners'
    | 'export';
  readonly ok: boolean;
  readonly detail: string;
}

/** The outcome of {@link verifyDraw}: `ok` when every check passed, and the winners the procedure gives. */
export interface DrawVerification {
  readonly ok: boolean;
  readonly checks: readonly DrawCheck[];
  /** The winners and backups re-drawn from the seed and the entries (empty when they could not be). */
  readonly expected: readonly DrawWinner[];
}

function entryOf(raw: unknown, i: number): ExportedDrawEntry {
  const e = raw as Record<string, unknown>;
  const ok =
    e !== null &&
    typeof e === 'object' &&
    Number.isInteger(e.position) &&
    typeof e.tweetId === 'string' &&
    typeof e.authorId === 'string' &&
    typeof e.authorUsername === 'string' &&
    typeof e.valid === 'boolean' &&
    (e.reason === undefined || typeof e.reason === 'string');
  if (!ok) {
    throw new TypeError(
      `entry ${i} is not an entry of a draw's entries export (position, tweetId, authorId, authorUsername, valid)`,
    );
  }
  return e as unknown as ExportedDrawEntry;
}

const winnerLine = (w: DrawWinner) =>
  `${w.position}:${w.isBackup ? 'backup' : 'winner'}:@${w.authorUsername}:${w.tweetId}`;
const sameWinners = (a: readonly DrawWinner[], b: readonly DrawWinner[]) =>
  a.length === b.length && a.every((w, i) => winnerLine(w) === winnerLine(b[i] as DrawWinner));

/** Whether the draw used the commitment the organiser published (every value given must match). */
function publishedCheck(
  v: NonNullable<VerifiableDraw['draw']['verification']>,
  published: PublishedCommitment,
): DrawCheck {
  const wrong: string[] = [];
  if (published.id !== undefined && published.id !== v.commitmentId)
    wrong.push(`commitment ${v.commitmentId ?? '(none)'}, not ${published.id}`);
  if (published.seedHash !== undefined && published.seedHash.toLowerCase() !== v.seedHash)
    wrong.push(`seed hash ${v.seedHash}, not ${published.seedHash}`);
  if (published.entropyHash !== undefined && published.entropyHash.toLowerCase() !== v.organiserEntropyHash)
    wrong.push(`entropy hash ${v.organiserEntropyHash ?? '(none)'}, not ${published.entropyHash}`);
  return wrong.length === 0
    ? { name: 'published', ok: true, detail: 'the draw used the commitment published before the giveaway' }
    : { name: 'published', ok: false, detail: `the draw used ${wrong.join(', ')}` };
}

/**
 * Re-runs a draw from its record and its entries export, and says whether the winners follow from them:
 * 0. `published` (when `published` is given): the draw used the commitment the organiser published;
 * 1. `seed`: the revealed seed hashes to the commitment published before any entry was read;
 *    `entropy` (a committed draw, `xsvc-draw-v2`): the organiser's entropy hashes to its commitment, when
 *    there is one; the winners are then drawn from `committedSeed(seed, entropy)`;
 * 2. `entries`: the exported entries hash to the entry list the draw recorded;
 * 3. `filters`: the request the draw shows (counts and filters) hashes to what it recorded;
 * 4. `counts`: the entries and the eligible ones are as many as the draw says;
 * 5. `winners`: the procedure (`xsvc-draw-v1`, see docs/guides/draws.md), run on the seed (of a committed
 *    draw: the mixed seed) and the eligible entries, gives exactly the draw's winners and backups, in order;
 * 6. `export`: the winners the export marks are the same.
 * `draw` is the answer of `getDraw` (`client.draws.get(id)`), `entries` the parsed JSON of
 * `client.draws.export(id, { type: 'entries', format: 'json' })`, `published` what the organiser published
 * before the giveaway (the commitment's id and hashes), to check against. A draw that does not verify is an
 * answer (`ok: false`), not an error; input of the wrong shape throws a TypeError.
 */
export async function verifyDraw(
  draw: VerifiableDraw,
  entries: readonly unknown[],
  published?: PublishedCommitment,
): Promise<DrawVerification> {
  if (!draw || typeof draw !== 'object' || !draw.draw || !Array.isArray(draw.winners)) {
    throw new TypeError('expected a draw as getDraw answers it: { draw, winners }');
  }
  if (!Array.isArray(entries)) throw new TypeError("expected the parsed JSON of a draw's entries export");
  const rows = entries.map(entryOf);
  const v = draw.draw.verification;
  const known = v?.procedure === DRAW_PROCEDURE || v?.procedure === COMMITTED_DRAW_PROCEDURE;
  const committed = v?.procedure === COMMITTED_DRAW_PROCEDURE;
  if (!v || !known || v.seed === undefined || (committed && v.organiserEntropy === undefined)) {
    const detail = !v
      ? 'the draw carries no seed commitment (drawn before draws were verifiable)'
      : !known
        ? `unknown procedure ${v.procedure} (this verifier knows ${DRAW_PROCEDURE} and ${COMMITTED_DRAW_PROCEDURE})`
        : v.seed === undefined
          ? 'the seed is not revealed yet'
          : "the organiser's entropy is not shown";
    return { ok: false, checks: [{ name: 'commitment', ok: false, detail }], expected: [] };
  }
  const checks: DrawCheck[] = [];
  const check = (name: DrawCheck['name'], ok: boolean, detail: string) => checks.push({ name, ok, detail });

  if (published) checks.push(publishedCheck(v, published));

  const seedOk = /^[0-9a-f]{64}$/.test(v.seed) && (await seedHash(v.seed)) === v.seedHash;
  check('seed', seedOk, seedOk ? `SHA-256(seed) = ${v.seedHash}` : `the seed does not hash to ${v.seedHash}`);

  let picksSeed = v.seed;
  if (committed) {
    const entropy = v.organiserEntropy as string;
    const hash = await entropyHash(entropy);
    const entropyOk = v.organiserEntropyHash === undefined || hash === v.organiserEntropyHash;
    check(
      'entropy',
      entropyOk,
      v.organiserEntropyHash === undefined
        ? `the organiser gave entropy ${JSON.stringify(entropy)} when the draw ran (no hash committed)`
        : entropyOk
          ? `SHA-256(organiser entropy) = ${v.organiserEntropyHash}`
          : `the organiser's entropy hashes to ${hash}, the commitment says ${v.organiserEntropyHash}`,
    );
    picksSeed = seedOk ? await committedSeed(v.seed, entropy) : v.seed;
  }

  const listHash = await entriesHash(rows);
  check(
    'entries',
    listHash === v.entriesHash,
    listHash === v.entriesHash
      ? `${rows.length} entries hash to ${v.entriesHash}`
      : `the exported entries hash to ${listHash}, the draw recorded ${v.entriesHash}`,
  );

  const requestHash = await filtersHash(v.filters);
  check(
    'filters',
    requestHash === v.filtersHash,
    requestHash === v.filtersHash
      ? `the request hashes to ${v.filtersHash}`
      : `the request shown hashes to ${requestHash}, the draw recorded ${v.filtersHash}`,
  );

  const eligible = rows.filter((e) => !e.reason).sort((a, b) => a.position - b.position);
  const flagged = rows.filter((e) => e.valid !== !e.reason).length;
  const countsOk =
    rows.length === draw.draw.totalEntries && eligible.length === draw.draw.validEntries && flagged === 0;
  check(
    'counts',
    countsOk,
    `${rows.length} entries (draw: ${draw.draw.totalEntries}), ${eligible.length} eligible (draw: ${draw.draw.validEntries})` +
      (flagged ? `, ${flagged} marked valid with a reason or invalid without one` : ''),
  );

  const winnerCount = Number(v.filters.winnerCount ?? 1);
  const backupCount = Number(v.filters.backupCount ?? 0);
  const picks = seedOk ? await drawPicks(picksSeed, eligible, winnerCount + backupCount) : [];
  const expected: DrawWinner[] = picks.map((e, i) => ({
    position: i + 1,
    authorUsername: e.authorUsername,
    tweetId: e.tweetId,
    isBackup: i >= winnerCount,
  }));
  const winnersOk = sameWinners(expected, draw.winners);
  check(
    'winners',
    winnersOk,
    winnersOk
      ? `the seed draws ${expected.map(winnerLine).join(', ') || 'no winner'}`
      : `the seed draws ${expected.map(winnerLine).join(', ') || 'no winner'}; the draw shows ${draw.winners.map(winnerLine).join(', ') || 'no winner'}`,
  );

  const marked: DrawWinner[] = rows
    .filter((e) => e.winnerPosition !== undefined)
    .sort((a, b) => (a.winnerPosition as number) - (b.winnerPosition as number))
    .map((e) => ({
      position: e.winnerPosition as number,
      authorUsername: e.authorUsername,
      tweetId: e.tweetId,
      isBackup: e.isBackup === true,
    }));
  const exportOk = sameWinners(marked, draw.winners);
  check(
    'export',
    exportOk,
    exportOk ? 'the export marks the same winners' : `the export marks ${marked.map(winnerLine).join(', ')}`,
  );

  return { ok: checks.every((c) => c.ok), checks, expected };
}
