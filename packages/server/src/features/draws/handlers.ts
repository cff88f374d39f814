import { limits } from '@xsvc/sdk/contract';
import { assertExportSize } from '../../core/exports/limits.js';
import { downloadHeaders, exportStream, renderExport } from '../../core/exports/render.js';
import { errors, HttpError } from '../../core/http/errors.js';
import { Answer, defineHandlers } from '../../core/http/handler.js';
import { withPlatformErrors } from '../../core/http/platform-errors.js';
import { timeUuid } from '../../core/ids/index.js';
import { cursorCodec, LIST_POSITION, legacyTagged, pageOf } from '../../core/paging/cursor.js';
import { commitSeed, consumeCommitment, newCommitmentRow, openCommitment, revealed } from './commitment.js';
import { conductDraw } from './conduct.js';
import { entriesTable, winnersTable } from './export.js';
import { toDrawDetail, toDrawListItem, toWinner } from './mappers.js';
import {
  drawEntries,
  drawWinners,
  findDraw,
  insertCommitment,
  insertDraw,
  listDrawRows,
} from './repository.js';

/** Largest balance a draw plans with: more than any draw can spend. */
const PLANNING_CAP = 1_000_000_000n;

const notFound = (id: string) => new HttpError('not_found', `no draw ${id}`);

/** Cursors of the draws list: the position of a page's last draw. */
const DRAWS_CURSOR = cursorCodec('draws', LIST_POSITION, { legacy: legacyTagged('draws') });

/**
 * The Draws operations (spec 2.7, 4.7). A run reads the giveaway tweet and its replies, applies the
 * filters and picks winners (see `conductDraw`); the credits its reads cost are deducted in one ledger row
 * in the transaction that stores the draw, so a failed deduction (402 `insufficient_credits`) leaves no draw
 * and a crash leaves neither a charge without its draw nor a draw without its charge.
 */
export const drawHandlers = withPlatformErrors(
  defineHandlers({
    listDraws: async (ctx) => {
      const { accountId } = ctx.requirePrincipal();
      const token = ctx.query.after ?? ctx.query.cursor;
      const limit = ctx.query.limit ?? limits.draws.defaultLimit;
      const after = DRAWS_CURSOR.decode(token);
      const rows = await listDrawRows(ctx.services.database.db, accountId, after, limit);
      const page = pageOf(
        DRAWS_CURSOR,
        rows,
        limit,
        (r) => ({ createdAt: Number(r.created_at), id: r.id }),
        toDrawListItem,
      );
      return {
        draws: page.items,
        hasMore: page.hasMore,
        ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }),
      };
    },

    createDrawCommitment: async (ctx) => {
      const { accountId } = ctx.requirePrincipal();
      const now = ctx.services.clock.now();
      const row = await newCommitmentRow(timeUuid(now), accountId, ctx.body.entropyHash, now);
      await insertCommitment(ctx.services.database.db, row);
      return {
        id: row.id,
        seedHash: row.seed_hash,
        ...(row.entropy_hash !== null && { entropyHash: row.entropy_hash }),
        committedAt: new Date(now).toISOString(),
      };
    },

    createDraw: async (ctx) => {
      const { accountId } = ctx.requirePrincipal();
      const { credits, platform, clock, database } = ctx.services;
      // The commitment fields are not filters: the draw's `filters` (and their hash) are the rest.
      const { commitmentId, organiserEntropy, ...settings } = ctx.body;
      if ((commitmentId === undefined) !== (organiserEntropy === undefined))
        throw new HttpError(
          'invalid_input',
          `${commitmentId === undefined ? 'commitmentId' : 'organiserEntropy'}: a committed draw takes both commitmentId and organiserEntropy`,
        );
      const committed =
        commitmentId !== undefined && organiserEntropy !== undefined
          ? await openCommitment(database.db, accountId, commitmentId, organiserEntropy)
          : undefined;
      const balance = await credits.balance(accountId);
      // Spec 8.2: a draw that could not afford one entry is 402, not an empty draw: the source lookup, one
      // reply, and its follow check when the draw needs one.
      const leastCost = settings.mustFollowUsername ? 3 : 2;
      if (balance < BigInt(leastCost)) throw errors.insufficientCredits(leastCost, balance);
      const createdAt = clock.now();
      // The seed is fixed, and its hash published, before any entry is read: by the organiser's commitment
      // (made and shown before the giveaway), else now (logged here, stored with the draw). Winners follow
      // from it, the organiser's entropy when committed, and the entries alone (see commitment.ts).
      const commitment = committed?.seed ?? (await commitSeed(createdAt));
      if (!committed) ctx.request.log.info({ drawSeedHash: commitment.seedHash }, 'draw seed committed');
      const outcome = await conductDraw(
        platform,
        createdAt,
        settings,
        Number(balance < PLANNING_CAP ? balance : PLANNING_CAP),
        committed?.organiser.pickSeed ?? commitment.seed,
      );
      const id = timeUuid(createdAt);
      const won = new Map(outcome.picks.map((p) => [p.entry.position, p]));
      const valid = outcome.entries.filter((e) => !e.reason).length;
      const { tweet } = outcome;
      // The final deduction, in the transaction that stores the draw: when it fails, nothing is stored
      // (spec 4.7), and a crash stores and charges both or neither.
      await insertDraw(
        database.db,
        {
          id,
          account_id: accountId,
          tweet_id: tweet.id,
          tweet_url: settings.tweetUrl,
          tweet_text: tweet.text,
          tweet_author_username: tweet.author?.username ?? null,
          tweet_created_at: tweet.createdAt,
          status: 'completed',
          total_entries: outcome.entries.length,
          valid_entries: valid,
          settings: JSON.stringify(settings),
          credits_charged: outcome.creditsSpent,
          created_at: createdAt,
          drawn_at: clock.now(),
          // The giveaway tweet's counts as the draw read it: the detail shows them, not today's.
          tweet_like_count: tweet.likeCount ?? null,
          tweet_retweet_count: tweet.retweetCount ?? null,
          tweet_reply_count: tweet.replyCount ?? null,
          tweet_quote_count: tweet.quoteCount ?? null,
          ...(await revealed(commitment, settings, outcome.entries, committed?.organiser)),
        },
        outcome.entries.map((e) => {
          const pick = won.get(e.position);
          return {
            draw_id: id,
            position: e.position,
            tweet_id: e.tweetId,
            author_id: e.authorId,
            author_username: e.authorUsername,
            text: e.text,
            tweet_created_at: e.createdAt,
            valid: e.reason ? 0 : 1,
            reason: e.reason ?? null,
            winner_position: pick?.position ?? null,
            is_backup: pick?.isBackup ? 1 : 0,
          };
        }),
        async (trx) => {
          if (committed) await consumeCommitment(trx, accountId, committed.organiser.commitmentId, id);
          await credits.payWithin(trx, accountId, ctx.op.id, outcome.creditsSpent, 1, ctx.requestId);
        },
      );
      return {
        id,
        tweetId: tweet.id,
        totalEntries: outcome.entries.length,
        validEntries: valid,
        winners: outcome.picks.map((p) => ({
          position: p.position,
          authorUsername: p.entry.authorUsername,
          tweetId: p.entry.tweetId,
          isBackup: p.isBackup,
        })),
      };
    },

    getDraw: async (ctx) => {
      const { accountId } = ctx.requirePrincipal();
      const db = ctx.services.database.db;
      const row = await findDraw(db, accountId, ctx.params.id);
      if (!row) throw notFound(ctx.params.id);
      // From storage only: the tweet's counts are those the draw read (the platform is not asked again).
      return { draw: toDrawDetail(row), winners: (await drawWinners(db, row.id)).map(toWinner) };
    },

    exportDraw: async (ctx) => {
      const { accountId } = ctx.requirePrincipal();
      const db = ctx.services.database.db;
      const row = await findDraw(db, accountId, ctx.params.id);
      if (!row) throw notFound(ctx.params.id);
      const type = ctx.query.type ?? 'winners';
      const table =
        type === 'entries'
          ? entriesTable(row, await drawEntries(db, row.id))
          : winnersTable(row, await drawWinners(db, row.id));
      assertExportSize(ctx.query.format, table.rowCount);
      const file = renderExport(ctx.query.format, table);
      return new Answer(200, exportStream(file), downloadHeaders(file, `draw-${row.id}-${type}`));
    },
  }),
);
