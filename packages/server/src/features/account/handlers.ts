import { limits } from '@xsvc/sdk/contract';
import {
  countActiveKeys,
  createApiKey,
  findAccount,
  revokeApiKey,
  setAccountLocale,
  setAccountXUsername,
  toApiAccount,
} from '../../core/auth/accounts.js';
import { HttpError } from '../../core/http/errors.js';
import { Answer, defineHandlers } from '../../core/http/handler.js';

const iso = (ms: bigint | number) => new Date(Number(ms)).toISOString();

/** Account and API key operations (spec 4.3, 4.4). */
export const accountHandlers = defineHandlers({
  getAccount: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const row = await findAccount(ctx.services.database.db, accountId);
    if (!row) throw new HttpError('account_not_found', 'the account no longer exists');
    return toApiAccount(
      row,
      await ctx.services.ports.monitorsUsed(accountId),
      limits.monitorCreditsPerHour,
      ctx.services.clock.now(),
    );
  },

  updateAccount: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    await setAccountLocale(ctx.services.database.db, accountId, ctx.body.locale);
    return { success: true };
  },

  setXIdentity: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const username = ctx.body.username.replace(/^@/, '');
    await setAccountXUsername(ctx.services.database.db, accountId, username);
    return { success: true, xUsername: username };
  },

  listApiKeys: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const rows = await ctx.services.database.db
      .selectFrom('api_keys')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at', 'desc')
      .limit(limits.unpaginatedListMax)
      .execute();
    return {
      keys: rows.map((r) => ({
        id: r.id,
        name: r.name,
        prefix: r.prefix,
        createdAt: iso(r.created_at),
        ...(r.last_used_at !== null && { lastUsedAt: iso(r.last_used_at) }),
        isActive: r.revoked_at === null,
        ...(r.revoked_at !== null && { revokedAt: iso(r.revoked_at) }),
      })),
    };
  },

  createApiKey: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const db = ctx.services.database.db;
    if ((await countActiveKeys(db, accountId)) >= limits.activeApiKeys) {
      throw new HttpError(
        'api_key_limit_reached',
        `an account may hold at most ${limits.activeApiKeys} active keys; revoke one first`,
      );
    }
    const now = ctx.services.clock.now();
    const name = ctx.body?.name ?? 'API key';
    const key = await createApiKey(db, { accountId, name, now });
    return new Answer(201, {
      id: key.id,
      name,
      prefix: key.prefix,
      createdAt: iso(now),
      fullKey: key.fullKey,
    });
  },

  revokeApiKey: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const revoked = await revokeApiKey(
      ctx.services.database.db,
      accountId,
      ctx.params.id,
      ctx.services.clock.now(),
    );
    if (!revoked) throw new HttpError('not_found', 'no active key with this id');
    return { success: true };
  },
});
