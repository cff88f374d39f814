import { limits } from '@xsvc/sdk/contract';
import { hexSecret } from '../../core/auth/keys.js';
import { HttpError } from '../../core/http/errors.js';
import { Answer, defineHandlers, type HandlerContext } from '../../core/http/handler.js';
import { timeId } from '../../core/ids/index.js';
import { checkWebhookTarget, UnsafeWebhookUrlError } from '../../core/ssrf/target.js';
import { listDeliveryRows } from './deliveries-repository.js';
import { toDelivery, toWebhook } from './mappers.js';
import { webhookRuntime } from './runtime.js';
import { testBody } from './signed-request.js';
import type { SendOutcome } from './transport.js';
import { openWebhookSecret, sealWebhookSecret } from './webhook-secret.js';
import {
  countActiveWebhooks,
  findWebhookRow,
  HEALTH,
  insertWebhookRow,
  listWebhookRows,
  resumeWebhookRow,
  updateWebhookRow,
  type WebhookRow,
} from './webhooks-repository.js';

const MAX_WEBHOOKS = limits.unpaginatedListMax;

/** The Webhooks operations (spec 4.6 and the reference's update, deactivate and resume). All are free. */
export const webhookHandlers = defineHandlers({
  listWebhooks: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const rows = await listWebhookRows(ctx.services.database.db, accountId, MAX_WEBHOOKS);
    return { webhooks: rows.map(toWebhook) };
  },

  createWebhook: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const db = ctx.services.database.db;
    if ((await countActiveWebhooks(db, accountId)) >= MAX_WEBHOOKS)
      throw new HttpError('invalid_input', `an account can have at most ${MAX_WEBHOOKS} active webhooks`);
    await vetUrl(ctx, ctx.body.url);
    const now = ctx.services.clock.now();
    const secret = hexSecret();
    const row: WebhookRow = {
      id: timeId(now),
      account_id: accountId,
      url: ctx.body.url,
      event_types: JSON.stringify(ctx.body.eventTypes),
      secret: sealWebhookSecret(ctx.services.secrets, secret),
      is_active: 1,
      health: HEALTH.active,
      consecutive_failures: 0,
      failure_hard_cap: webhookRuntime(ctx.services.database).options.failureHardCap,
      created_at: now,
      updated_at: now,
    };
    await insertWebhookRow(db, row);
    const { id, url } = row;
    return { id, url, eventTypes: ctx.body.eventTypes, secret, createdAt: new Date(now).toISOString() };
  },

  updateWebhook: async (ctx) => {
    const row = await ownWebhook(ctx, ctx.params.id);
    const { url, eventTypes, isActive } = ctx.body;
    if (url !== undefined) await vetUrl(ctx, url);
    if (isActive === true && Number(row.is_active) !== 1) {
      if ((await countActiveWebhooks(ctx.services.database.db, row.account_id)) >= MAX_WEBHOOKS)
        throw new HttpError('invalid_input', `an account can have at most ${MAX_WEBHOOKS} active webhooks`);
    }
    const updated = await updateWebhookRow(
      ctx.services.database.db,
      row,
      {
        ...(url !== undefined && { url }),
        ...(eventTypes !== undefined && { eventTypes }),
        ...(isActive !== undefined && { isActive }),
      },
      ctx.services.clock.now(),
    );
    if (isActive === true) webhookRuntime(ctx.services.database).engine.wake();
    return toWebhook(updated);
  },

  deleteWebhook: async (ctx) => {
    const row = await ownWebhook(ctx, ctx.params.id);
    // Deleted, not merely paused: it leaves the list (a paused one stays, and `isActive: true` resumes it).
    await updateWebhookRow(ctx.services.database.db, row, { deleted: true }, ctx.services.clock.now());
    return { success: true };
  },

  listWebhookDeliveries: async (ctx) => {
    const row = await ownWebhook(ctx, ctx.params.id);
    const rows = await listDeliveryRows(ctx.services.database.db, row.id, MAX_WEBHOOKS);
    return { deliveries: rows.map(toDelivery) };
  },

  testWebhook: async (ctx) => {
    const row = await activeWebhook(ctx, ctx.params.id);
    const outcome = await sendTest(ctx, row);
    return {
      success: outcome.ok,
      statusCode: outcome.statusCode ?? 0,
      ...(outcome.error !== undefined && { error: outcome.error }),
    };
  },

  resumeWebhook: async (ctx) => {
    const row = await activeWebhook(ctx, ctx.params.id);
    const outcome = await sendTest(ctx, row);
    const statusCode = outcome.statusCode ?? 0;
    if (!outcome.ok) {
      // The reference's 400 answer of a failed test ({ success, statusCode, error }), shaped as a spec
      // error body too, so clients that only read `error` and `message` still get a code.
      return new Answer(400, {
        error: 'invalid_input',
        message: `the signed test failed (${outcome.error ?? `HTTP ${statusCode}`}); the endpoint stays paused`,
        success: false,
        statusCode,
      });
    }
    const runtime = webhookRuntime(ctx.services.database);
    const resumed = await resumeWebhookRow(ctx.services.database.db, row.id, ctx.services.clock.now());
    runtime.engine.wake();
    return { success: true, statusCode, webhook: toWebhook(resumed) };
  },
});

/** The part of a handler's context these helpers use. */
type Ctx = Pick<HandlerContext, 'services' | 'requirePrincipal'>;

/** The caller's webhook, or 404 (another account's webhook is not found either). */
async function ownWebhook(ctx: Ctx, id: string): Promise<WebhookRow> {
  const { accountId } = ctx.requirePrincipal();
  const row = await findWebhookRow(ctx.services.database.db, accountId, id);
  if (!row) throw new HttpError('not_found', `no webhook with id ${id}`);
  return row;
}

/** The caller's webhook, switched on (a test of a switched-off endpoint is 409 webhook_inactive). */
async function activeWebhook(ctx: Ctx, id: string): Promise<WebhookRow> {
  const row = await ownWebhook(ctx, id);
  if (Number(row.is_active) !== 1)
    throw new HttpError('webhook_inactive', 'the webhook is switched off; switch it on with isActive: true');
  return row;
}

/** The SSRF guard on a URL an owner gives: refused URLs are 400 invalid_input with the reason. */
async function vetUrl(ctx: Ctx, url: string): Promise<void> {
  const runtime = webhookRuntime(ctx.services.database);
  try {
    await checkWebhookTarget(url, runtime.policy, runtime.options.resolver);
  } catch (err) {
    if (err instanceof UnsafeWebhookUrlError) throw new HttpError('invalid_input', `url: ${err.message}`);
    throw err;
  }
}

/** Sends the signed `webhook.test` payload (spec 6.3) to the endpoint now and reports what it answered. */
function sendTest(ctx: Ctx, row: WebhookRow): Promise<SendOutcome> {
  const runtime = webhookRuntime(ctx.services.database);
  const secret = openWebhookSecret(ctx.services.secrets, row.secret);
  return runtime.dispatcher.send(row.url, secret, testBody(ctx.services.clock.now()));
}
