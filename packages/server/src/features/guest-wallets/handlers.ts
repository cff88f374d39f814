import { randomBytes } from 'node:crypto';
import { schemas } from '@xsvc/sdk/contract';
import type { Kysely } from 'kysely';
import { insertGuestAccount } from '../../core/auth/accounts.js';
import { GUEST_KEY_PREFIX } from '../../core/auth/guest-keys.js';
import { sha256 } from '../../core/auth/keys.js';
import { checkoutExpiresAt, currentCheckout, insertCheckout } from '../../core/billing/checkouts.js';
import { big, num } from '../../core/db/database.js';
import type { Database } from '../../core/db/schema.js';
import { HttpError } from '../../core/http/errors.js';
import { Answer, defineHandlers, type HandlerContext } from '../../core/http/handler.js';
import {
  IdempotencyRace,
  type KeyedRequest,
  lookup,
  remember,
  requestHash,
  requiredIdempotencyKey,
} from '../../core/idempotency/idempotency.js';
import { randomId, timeHexId, uuid } from '../../core/ids/index.js';
import { consume, Sweeper, sweep } from '../../core/limits/fixed-window.js';
import { clientKey } from '../../core/limits/sign-in-limits.js';
import type { Services } from '../../core/services.js';
import { openAnswer, sealAnswer } from './sealed-answer.js';

/** Credits per cent paid: 10,000 per dollar, as top-ups. */
const CREDITS_PER_CENT = 100n;
/** How long a client should wait between status polls while a checkout is open (the reference's constant). */
const POLL_AFTER_SECONDS = 2;
/**
 * New wallets per client address (no credential identifies the caller): 10 an hour, so that nobody fills
 * the database with unpaid wallets and checkouts. Past it: 429 `rate_limited` with `Retry-After`.
 */
export const GUEST_WALLETS_PER_CLIENT = { limit: 10, windowMs: 3_600_000 } as const;

type Db = Kysely<Database>;
type Checkout = schemas.GuestWalletCheckout;
type Body = { amount_minor: number; currency: string };

/** How checkout requests word their `Idempotency-Key` errors (required, a UUID v4: 400 otherwise). */
const KEY_MESSAGES = {
  missing: 'send an Idempotency-Key header holding a new UUID v4 (keep it for retries of this request)',
  invalid: 'Idempotency-Key must be a UUID v4',
};

/** Checkout keys are one scope: a key names one checkout, whoever sends it. */
const SCOPE = 'guest-wallets';

/** 409 for a key used with another body or by another caller. */
const conflict = () =>
  new HttpError(
    'idempotency_key_conflict',
    'this Idempotency-Key was used for another request; use a new UUID v4 for a new checkout',
  );

/** The key of a checkout request and the hash of what it asks (the calling wallet, if any, and the body). */
async function keyed(ctx: HandlerContext, body: Body, walletId?: string): Promise<KeyedRequest> {
  const key = requiredIdempotencyKey(ctx.request.headers, ctx.op, KEY_MESSAGES);
  return { scope: SCOPE, key, hash: await requestHash([walletId ?? null, body]) };
}

/**
 * The earlier answer to this `Idempotency-Key`, if any: the same caller and body get the same answer (the
 * guest key included, so a lost answer does not lose the wallet), another body or caller 409
 * `idempotency_key_conflict`.
 */
async function replayOf(services: Services, req: KeyedRequest): Promise<Answer | undefined> {
  const db = services.database.db;
  const prior = await lookup(db, req, conflict);
  if (prior === undefined) {
    // Past the replay window the answer (and the guest key in it) is gone, but the purchase keeps the key:
    // the key stays spent, so a replay opens no second checkout and gets 409 instead of a new wallet.
    const spent = await db
      .selectFrom('guest_purchases')
      .select('id')
      .where('idempotency_key', '=', req.key)
      .executeTakeFirst();
    if (spent)
      throw new HttpError(
        'idempotency_key_conflict',
        'this Idempotency-Key opened a checkout whose answer is past the replay window; use a new UUID v4',
      );
    return undefined;
  }
  if (prior === '') throw conflict();
  return new Answer(201, await openAnswer(services, prior));
}

/** Opens a checkout for `body` on a wallet and answers it (keeping the answer for retries). */
async function openPurchase(
  services: Services,
  wallet: { id: string; accountId: string },
  body: Body,
  req: KeyedRequest,
  secret: { apiKey: string } | undefined,
): Promise<Answer> {
  const db = services.database.db;
  const now = services.clock.now();
  const credits = BigInt(body.amount_minor) * CREDITS_PER_CENT;
  const checkout = await insertCheckout(db, {
    accountId: wallet.accountId,
    kind: 'topup',
    dollars: BigInt(Math.floor(body.amount_minor / 100)),
    credits,
    now,
  });
  const base = services.publicUrl();
  // Time-ordered, so the latest purchase is the greatest id even within one millisecond.
  const purchaseId = timeHexId('gp', now);
  const answer: Checkout = {
    wallet_id: wallet.id,
    purchase_id: purchaseId,
    status: 'pending',
    amount: { amount_minor: body.amount_minor, currency: body.currency.toLowerCase() },
    credits: String(credits),
    checkout_url: `${base}/checkout/${checkout.id}`,
    status_url: `${base}/api/v1/guest-wallets/status`,
    expires_at: new Date(checkout.expiresAt).toISOString(),
    poll_after_seconds: POLL_AFTER_SECONDS,
    requires_user_interaction: true,
    account_required: false,
    instructions:
      'Open checkout_url in a browser only after the user has confirmed this payment; then poll status_url ' +
      'with the guest key until usable is true. On this self-hosted server the owner approves the checkout ' +
      '(no money moves).',
    ...(secret && {
      api_key: secret.apiKey,
      credential_notice: schemas.GUEST_CREDENTIAL_NOTICE,
      authorization: { header: 'Authorization', scheme: 'Bearer' },
    }),
  };
  const sealed = await sealAnswer(services, answer);
  try {
    await db.transaction().execute(async (trx) => {
      await remember(trx, { ...req, answer: sealed, now });
      await trx
        .insertInto('guest_purchases')
        .values({
          id: purchaseId,
          wallet_id: wallet.id,
          checkout_id: checkout.id,
          amount_minor: body.amount_minor,
          currency: body.currency.toLowerCase(),
          credits,
          idempotency_key: req.key,
          request_hash: req.hash,
          // The answer is kept (sealed) by the idempotency store.
          response: null,
          created_at: now,
        })
        .execute();
    });
  } catch (err) {
    // The same key sent twice at once: the loser answers what the winner stored.
    if (!(err instanceof IdempotencyRace)) throw err;
    const replay = await replayOf(services, req);
    if (replay) return replay;
    throw err;
  }
  return new Answer(201, answer);
}

/** The purchase status a checkout status stands for. */
function purchaseStatus(checkoutStatus: string): 'pending' | 'paid' | 'expired' | 'failed' {
  if (checkoutStatus === 'open') return 'pending';
  if (checkoutStatus === 'paid' || checkoutStatus === 'expired') return checkoutStatus;
  return 'failed';
}

/** The guest wallet of the calling guest key (the route accepts only guest keys). */
async function callerWallet(ctx: HandlerContext) {
  const principal = ctx.requirePrincipal();
  const wallet = await ctx.services.database.db
    .selectFrom('guest_wallets')
    .select(['id', 'account_id', 'status', 'created_at'])
    .where('account_id', '=', principal.accountId)
    .executeTakeFirst();
  if (!wallet) throw new HttpError('unauthenticated', 'this operation needs a guest key');
  return wallet;
}

/**
 * Guest wallets (spec 5.5, reference Guest Wallets): a wallet and its guest key are created without an
 * account; credits arrive through a checkout (local on a self-hosted server: the owner approves it, as for
 * top-ups), 10,000 per dollar. The key then pays for the paid read-only routes (the operations whose
 * credentials include `guest`) until the balance is spent; it opens nothing else. Checkout requests need an
 * `Idempotency-Key` (UUID v4): a retry gets the same answer, another body with the same key 409.
 */
export const guestWalletHandlers = defineHandlers({
  createGuestWallet: async (ctx) => {
    const req = await keyed(ctx, ctx.body);
    const db = ctx.services.database.db;
    const replay = await replayOf(ctx.services, req);
    if (replay) return replay;
    const { allowed, retryAfter } = await consume(db, {
      key: `guest-wallets:client:${clientKey(ctx.request.ip)}`,
      ...GUEST_WALLETS_PER_CLIENT,
      now: ctx.services.clock.now(),
    });
    if (sweeper.due(ctx.services.clock.now()))
      await sweep(db, ctx.services.clock.now() - GUEST_WALLETS_PER_CLIENT.windowMs, 'guest-wallets:');
    if (!allowed)
      throw new HttpError(
        'rate_limited',
        `too many guest wallets created from this address: at most ${GUEST_WALLETS_PER_CLIENT.limit} an hour`,
        { retryAfter },
        429,
        { 'retry-after': String(retryAfter) },
      );
    const now = ctx.services.clock.now();
    const walletId = randomId('gw');
    const apiKey = `${GUEST_KEY_PREFIX}${randomBytes(32).toString('hex')}`;
    const accountId = uuid();
    await db.transaction().execute(async (trx) => {
      // Not an e-mail address: nobody can ask a sign-in link for a wallet's account.
      await insertGuestAccount(trx, { id: accountId, email: `guest:${walletId}`, now });
      await trx
        .insertInto('guest_wallets')
        .values({
          id: walletId,
          account_id: accountId,
          key_hash: sha256(apiKey),
          status: 'pending',
          created_at: now,
        })
        .execute();
    });
    return openPurchase(ctx.services, { id: walletId, accountId }, ctx.body, req, { apiKey });
  },

  topUpGuestWallet: async (ctx) => {
    const wallet = await callerWallet(ctx);
    if (wallet.status === 'closed') throw new HttpError('closed', 'this guest wallet is closed');
    const req = await keyed(ctx, ctx.body, wallet.id);
    const replay = await replayOf(ctx.services, req);
    if (replay) return replay;
    return openPurchase(
      ctx.services,
      { id: wallet.id, accountId: wallet.account_id },
      ctx.body,
      req,
      undefined,
    );
  },

  getGuestWalletStatus: async (ctx) => {
    const wallet = await callerWallet(ctx);
    const db = ctx.services.database.db;
    const now = ctx.services.clock.now();
    const latest = await db
      .selectFrom('guest_purchases')
      .selectAll()
      .where('wallet_id', '=', wallet.id)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    const checkout = latest ? await currentCheckout(db, latest.checkout_id, now) : undefined;
    const purchase = checkout ? purchaseStatus(checkout.status) : undefined;
    // Stored only when closed; otherwise derived: active once any of its checkouts has been paid.
    const status: 'active' | 'closed' | 'pending' =
      wallet.status === 'closed' ? 'closed' : (await hasPaidPurchase(db, wallet.id)) ? 'active' : 'pending';
    const account = await db
      .selectFrom('accounts')
      .select('credits_balance')
      .where('id', '=', wallet.account_id)
      .executeTakeFirstOrThrow();
    const balance = big(account.credits_balance);
    const base = ctx.services.publicUrl();
    return {
      wallet_id: wallet.id,
      status,
      usable: status === 'active' && balance > 0n,
      balance: String(balance),
      scope: 'paid_reads',
      latest_purchase:
        latest && checkout && purchase
          ? {
              purchase_id: latest.id,
              status: purchase,
              amount: { amount_minor: num(latest.amount_minor), currency: latest.currency },
              credits: String(big(latest.credits)),
              checkout_url: purchase === 'pending' ? `${base}/checkout/${checkout.id}` : null,
              expires_at: new Date(checkoutExpiresAt(checkout)).toISOString(),
            }
          : null,
      poll_after_seconds: purchase === 'pending' ? POLL_AFTER_SECONDS : null,
      // Offered only when it can be used now: a usable wallet without a checkout still open.
      top_up:
        status === 'active' && purchase !== 'pending'
          ? { method: 'POST', path: '/api/v1/guest-wallets/topups' }
          : null,
    };
  },
});

/** This limit's windows that ended are swept at most once a minute per process. */
const sweeper = new Sweeper();

/** True when one of the wallet's checkouts has been paid (a paid checkout never changes again). */
async function hasPaidPurchase(db: Db, walletId: string): Promise<boolean> {
  const row = await db
    .selectFrom('guest_purchases as p')
    .innerJoin('checkouts as c', 'c.id', 'p.checkout_id')
    .select('p.id')
    .where('p.wallet_id', '=', walletId)
    .where('c.status', '=', 'paid')
    .executeTakeFirst();
  return row !== undefined;
}
