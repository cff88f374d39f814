import { randomBytes, randomUUID } from 'node:crypto';
import type { schemas } from '@xsvc/sdk/contract';
import type { Kysely } from 'kysely';
import { insertGuestAccount } from '../../core/auth/accounts.js';
import { GUEST_KEY_PREFIX } from '../../core/auth/guest-keys.js';
import { sha256 } from '../../core/auth/keys.js';
import { checkoutExpiresAt, currentCheckout, insertCheckout } from '../../core/billing/checkouts.js';
import { ledgerRowId } from '../../core/billing/ledger-id.js';
import { big, num } from '../../core/db/database.js';
import type { Database } from '../../core/db/schema.js';
import { HttpError } from '../../core/http/errors.js';
import { Answer, defineHandlers, type HandlerContext } from '../../core/http/handler.js';
import { clientKey, countInWindow } from '../../core/limits/sign-in-limits.js';
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

/** The `Idempotency-Key` of a checkout request, as its operation declares it: required, a UUID v4 (400 otherwise). */
function idempotencyKey(ctx: HandlerContext): string {
  const header = ctx.op.headers?.['Idempotency-Key'];
  if (!header) throw new Error(`${ctx.op.id} declares no Idempotency-Key`);
  const raw = ctx.request.headers['idempotency-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!key)
    throw new HttpError(
      'missing_idempotency_key',
      'send an Idempotency-Key header holding a new UUID v4 (keep it for retries of this request)',
    );
  if (!header.schema.safeParse(key).success)
    throw new HttpError('invalid_idempotency_key', 'Idempotency-Key must be a UUID v4');
  return key;
}

/**
 * The earlier answer to this `Idempotency-Key`, if any: the same body gets the same answer (the guest key
 * included, so a lost answer does not lose the wallet), another body 409 `idempotency_key_conflict`.
 */
async function replayOf(
  services: Services,
  key: string,
  body: Body,
  walletId?: string,
): Promise<Answer | undefined> {
  const prior = await services.database.db
    .selectFrom('guest_purchases')
    .select(['wallet_id', 'request_hash', 'response'])
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
  if (!prior) return undefined;
  const sameCaller = walletId === undefined || prior.wallet_id === walletId;
  if (
    !sameCaller ||
    prior.request_hash !== sha256(JSON.stringify([walletId ?? null, body])) ||
    !prior.response
  )
    throw new HttpError(
      'idempotency_key_conflict',
      'this Idempotency-Key was used for another request; use a new UUID v4 for a new checkout',
    );
  return new Answer(201, await openAnswer(services, prior.response));
}

/** Opens a checkout for `body` on a wallet and answers it (keeping the answer for retries). */
async function openPurchase(
  services: Services,
  wallet: { id: string; accountId: string },
  body: Body,
  key: string,
  secret: { apiKey: string } | undefined,
  callerWalletId: string | undefined,
): Promise<Checkout> {
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
  const purchaseId = `gp_${ledgerRowId(now).replace(/-/g, '')}`;
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
      credential_notice:
        'This guest key is shown once: store it now. It pays for read-only calls once the payment is verified.',
      authorization: { header: 'Authorization', scheme: 'Bearer' },
    }),
  };
  await db
    .insertInto('guest_purchases')
    .values({
      id: purchaseId,
      wallet_id: wallet.id,
      checkout_id: checkout.id,
      amount_minor: body.amount_minor,
      currency: body.currency.toLowerCase(),
      credits,
      idempotency_key: key,
      request_hash: sha256(JSON.stringify([callerWalletId ?? null, body])),
      response: await sealAnswer(services, answer),
      created_at: now,
    })
    .execute();
  return answer;
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
    const key = idempotencyKey(ctx);
    const db = ctx.services.database.db;
    const replay = await replayOf(ctx.services, key, ctx.body);
    if (replay) return replay;
    const { over, retryAfter } = await countInWindow(
      ctx.services.database,
      `guest-wallets:client:${clientKey(ctx.request.ip)}`,
      GUEST_WALLETS_PER_CLIENT,
      ctx.services.clock.now(),
    );
    await sweepCounters(ctx.services, ctx.services.clock.now());
    if (over)
      throw new HttpError(
        'rate_limited',
        `too many guest wallets created from this address: at most ${GUEST_WALLETS_PER_CLIENT.limit} an hour`,
        { retryAfter },
        429,
        { 'retry-after': String(retryAfter) },
      );
    const now = ctx.services.clock.now();
    const walletId = `gw_${randomUUID().replace(/-/g, '')}`;
    const apiKey = `${GUEST_KEY_PREFIX}${randomBytes(32).toString('hex')}`;
    const accountId = randomUUID();
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
    return new Answer(
      201,
      await openPurchase(ctx.services, { id: walletId, accountId }, ctx.body, key, { apiKey }, undefined),
    );
  },

  topUpGuestWallet: async (ctx) => {
    const wallet = await callerWallet(ctx);
    if (wallet.status === 'closed') throw new HttpError('closed', 'this guest wallet is closed');
    const key = idempotencyKey(ctx);
    const replay = await replayOf(ctx.services, key, ctx.body, wallet.id);
    if (replay) return replay;
    return new Answer(
      201,
      await openPurchase(
        ctx.services,
        { id: wallet.id, accountId: wallet.account_id },
        ctx.body,
        key,
        undefined,
        wallet.id,
      ),
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

let lastSweep = 0;

/** Removes this limit's counters of past windows, at most once a minute per process. */
async function sweepCounters(services: Services, now: number): Promise<void> {
  if (now - lastSweep < 60_000 && now >= lastSweep) return;
  lastSweep = now;
  await services.database.db
    .deleteFrom('rate_limit_counters')
    .where('bucket', 'like', 'guest-wallets:%')
    .where('window_start', '<', now - 2 * GUEST_WALLETS_PER_CLIENT.windowMs)
    .execute();
}

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
