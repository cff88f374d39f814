import { type AnyOperation, operationsById } from '@xsvc/sdk/contract';
import { unitPrice } from '../../../core/billing/metering.js';
import { HttpError } from '../../../core/http/errors.js';
import { Answer, type HandlerContext } from '../../../core/http/handler.js';
import { accountProtected, userNotFound } from '../../../core/http/platform-errors.js';
import { timeId } from '../../../core/ids/index.js';
import { defineReadHandlers } from '../../../core/reads/define.js';
import { type AccountState, accountState } from '../account-state.js';
import { fetchOriginalTweets, STYLE_SAMPLE_SIZE } from './fetch.js';
import { isFresh, toStyle, toStyleSummary } from './mappers.js';
import { measureStyle } from './performance.js';
import {
  deleteStyleRow,
  findStyleRow,
  listStyleRows,
  putStyleRow,
  type StyleRow,
  type StyleTweet,
  styleKey,
} from './repository.js';

/** A fetch of a style reads the user's timeline, priced as the `/x/users/{id}/tweets` read (per tweet). */
const FETCH_PRICE = unitPrice(operationsById.getUserTweets as AnyOperation);

/** Custom styles (saveStyle): at most this many sample tweets. */
const MAX_CUSTOM_TWEETS = 100;

const USERNAME = /^[A-Za-z0-9_]{1,15}$/;

/** 404 `style_not_found`. */
function styleNotFound(ref: string): HttpError {
  return new HttpError(
    'style_not_found',
    `no cached style ${ref}; analyze it first with POST /api/v1/styles`,
  );
}

/** One style of the caller, or 404 `style_not_found`. */
async function ownStyle(ctx: HandlerContext, ref: string): Promise<StyleRow> {
  const { accountId } = ctx.requirePrincipal();
  const row = await findStyleRow(ctx.services.database.db, accountId, ref);
  if (!row) throw styleNotFound(ref);
  return row;
}

/** 402 when the account cannot pay for platform reads: no subscription, or a lapsed one. */
function subscriptionError(state: AccountState): HttpError | undefined {
  if (state.plan === 'active') return undefined;
  if (state.plan === 'inactive')
    return new HttpError('subscription_inactive', 'the subscription is not active; renew it to read');
  return new HttpError('no_subscription', 'the account has no subscription; subscribe to read');
}

/**
 * The cached writing styles (spec 2.9, 4.9). Analyze answers a fresh cache (under 7 days) free with 200;
 * otherwise it reads the user's most recent original tweets (charged per tweet like the user-tweets read),
 * replaces the cache and answers 201. Without an active subscription an existing cache (fresh or not) still
 * answers 200 and a missing one 402 `no_cached_style`. Performance reads the current engagement of the
 * style's tweets (per tweet measured).
 */
export const styleHandlers = defineReadHandlers({
  listStyles: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const db = ctx.services.database.db;
    const [rows, state] = await Promise.all([
      listStyleRows(db, accountId),
      accountState(db, accountId, ctx.services.clock.now()),
    ]);
    return { styles: rows.map((r) => toStyleSummary(r, state.linkedUsername)) };
  },

  analyzeStyle: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const { database, clock, platform, credits } = ctx.services;
    const db = database.db;
    const username = ctx.body.username;
    const now = clock.now();
    const [existing, state] = await Promise.all([
      findStyleRow(db, accountId, styleKey(username)).then((r) =>
        r && r.username_lower === styleKey(username) ? r : undefined,
      ),
      accountState(db, accountId, ctx.services.clock.now()),
    ]);
    if (existing && isFresh(existing, now)) return new Answer(200, toStyle(existing, state.linkedUsername));
    if (state.plan !== 'active') {
      if (existing) return new Answer(200, toStyle(existing, state.linkedUsername));
      throw new HttpError(
        'no_cached_style',
        `no cached style for @${styleKey(username)}, and fetching one needs an active subscription`,
        { subscription: state.plan === 'inactive' ? 'inactive' : 'none' },
      );
    }
    const user = await platform.getUser(username);
    if (!user || user.unavailable) throw userNotFound(`@${username}`);
    if (user.protected) throw accountProtected(user.username);
    const want = await credits.affordable(accountId, STYLE_SAMPLE_SIZE, FETCH_PRICE);
    const tweets = await fetchOriginalTweets(platform, user, want);
    // The charge commits with the style it pays for, or not at all: a crash between the two cannot charge
    // for a style that was never stored (a retry would pay again).
    const row = await db.transaction().execute(async (trx) => {
      await credits.payWithin(trx, accountId, ctx.op.id, tweets.length, FETCH_PRICE, ctx.requestId);
      return putStyleRow(trx, {
        id: existing?.id ?? timeId(now),
        accountId,
        username: user.username,
        label: null,
        origin: 'analyzed',
        tweets,
        now,
      });
    });
    return new Answer(201, toStyle(row, state.linkedUsername));
  },

  compareStyles: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const db = ctx.services.database.db;
    const { username1, username2 } = ctx.query;
    const [a, b, state] = await Promise.all([
      ownStyle(ctx, styleKey(username1)),
      ownStyle(ctx, styleKey(username2)),
      accountState(db, accountId, ctx.services.clock.now()),
    ]);
    return { style1: toStyle(a, state.linkedUsername), style2: toStyle(b, state.linkedUsername) };
  },

  getStyle: async (ctx) => {
    const row = await ownStyle(ctx, ctx.params.id);
    const state = await accountState(ctx.services.database.db, row.account_id, ctx.services.clock.now());
    return toStyle(row, state.linkedUsername);
  },

  saveStyle: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const db = ctx.services.database.db;
    const existing = await findStyleRow(db, accountId, ctx.params.id);
    const username = existing?.username_lower ?? ctx.params.id.replace(/^@/, '');
    if (!USERNAME.test(username))
      throw new HttpError('invalid_input', 'id: must be a style id or a name of 1-15 letters, digits or _');
    if (ctx.body.tweets.length > MAX_CUSTOM_TWEETS)
      throw new HttpError('invalid_input', `tweets: at most ${MAX_CUSTOM_TWEETS} sample tweets`);
    const now = ctx.services.clock.now();
    const createdAt = new Date(now).toISOString();
    const key = styleKey(username);
    const tweets: StyleTweet[] = ctx.body.tweets.map((t, i) => ({
      id: `custom-${i + 1}`,
      text: t.text,
      authorUsername: key,
      createdAt,
    }));
    const row = await putStyleRow(db, {
      id: existing?.id ?? timeId(now),
      accountId,
      username: key,
      label: ctx.body.label,
      origin: 'custom',
      tweets,
      now,
    });
    const state = await accountState(db, accountId, ctx.services.clock.now());
    return toStyle(row, state.linkedUsername);
  },

  deleteStyle: async (ctx) => {
    const row = await ownStyle(ctx, ctx.params.id);
    await deleteStyleRow(ctx.services.database.db, row.account_id, row.id);
    return undefined;
  },

  getStylePerformance: async (ctx) => {
    const row = await ownStyle(ctx, ctx.params.id);
    const state = await accountState(ctx.services.database.db, row.account_id, ctx.services.clock.now());
    const refused = subscriptionError(state);
    if (refused) throw refused;
    return measureStyle(ctx, row);
  },
});
