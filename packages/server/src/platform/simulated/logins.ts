import { createHash, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.js';
import { num } from '../../core/db/database.js';
import type { Database } from '../../core/db/schema.js';
import type { LoginCredentials, LoginOutcome } from '../../core/platform/account-writes.js';
import { isLocked } from './account-lock.js';
import { SimulatedPlatformError } from './errors.js';
import { findUserRow } from './lookup.js';

const scryptAsync = promisify(scrypt) as (
  pw: string,
  salt: string,
  len: number,
  o: object,
) => Promise<Buffer>;
const SCRYPT = { N: 4096, r: 8, p: 1 };

/**
 * The password of every simulated account that has none of its own (seeded or created by `/sim/users`):
 * developers connect any simulated account with it. `PUT /sim/users/:username/credentials` sets another.
 */
export const SIM_DEV_PASSWORD = 'sim-password';

/** How long an e-mailed login code stays valid on the simulated platform. */
export const SIM_EMAIL_CODE_TTL_MS = 10 * 60_000;

/** The login secrets of a simulated account (`PUT /sim/users/:username/credentials`). */
export interface SimCredentialsInput {
  password?: string | undefined;
  /** The account's e-mail address; when set, logins must give the same one. */
  email?: string | null | undefined;
  /** The authenticator secret; when set, logins must give the same one. */
  totpSecret?: string | null | undefined;
  /** How many e-mailed codes each login asks for before it completes (0-3). */
  emailCodes?: number | undefined;
}

/** A code in the simulated inbox of an account. */
export interface SimInboxMessage {
  code: string;
  sentAt: string;
  expiresAt: string;
  /** Whether the login waiting for it still accepts it. */
  valid: boolean;
}

const failed = (message = 'wrong username or password'): LoginOutcome => ({
  kind: 'rejected',
  code: 'login_failed',
  message,
});

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const sixDigits = () => String(randomInt(0, 1_000_000)).padStart(6, '0');
const normalizeSecret = (s: string) => s.replace(/\s+/g, '').toUpperCase();

/**
 * Logins to the simulated platform: password (the account's own, else {@link SIM_DEV_PASSWORD}), e-mail
 * and authenticator secret when the account has them, e-mailed codes (delivered to a simulated inbox that
 * the owner reads at `GET /sim/users/:username/inbox`) and sessions. Passwords are kept as salted scrypt
 * hashes; sessions as SHA-256 of their token. Changing an account's password ends its sessions.
 */
export class SimulatedLogins {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async login(credentials: LoginCredentials): Promise<LoginOutcome> {
    const user = await findUserRow(this.db, credentials.user);
    if (!user) return failed();
    const cred = await this.db
      .selectFrom('simulated_credentials')
      .selectAll()
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    const passwordOk =
      cred?.password_hash && cred.password_salt
        ? safeEqual(await hashPassword(credentials.password, cred.password_salt), cred.password_hash)
        : safeEqual(credentials.password, SIM_DEV_PASSWORD);
    if (!passwordOk) return failed();
    if (cred?.email && credentials.email?.toLowerCase() !== cred.email.toLowerCase()) return failed();
    if (
      cred?.totp_secret &&
      normalizeSecret(credentials.totpSecret ?? '') !== normalizeSecret(cred.totp_secret)
    ) {
      return failed('the two-factor authentication secret does not match');
    }
    if (num(user.suspended)) {
      return { kind: 'rejected', code: 'x_login_suspended', message: `@${user.username} is suspended` };
    }
    // A locked account logs in only once its owner unlocked it on the platform (the login codes have no
    // lock of their own): a re-authentication then finds it well.
    if (await isLocked(this.db, user.id)) {
      return {
        kind: 'rejected',
        code: 'login_failed',
        message: `@${user.username} is locked; unlock it first`,
      };
    }
    const codes = num(cred?.email_codes ?? 0);
    if (codes > 0) return this.sendCode(user.id, user.username, randomBytes(16).toString('hex'), codes);
    return this.session(user.id, user.username);
  }

  async submitLoginCode(flowId: string, code: string): Promise<LoginOutcome> {
    const flow = await this.db
      .selectFrom('simulated_login_flows')
      .selectAll()
      .where('id', '=', flowId)
      .where('status', '=', 'waiting')
      .orderBy('sent_at', 'desc')
      .executeTakeFirst();
    if (!flow || this.clock.now() > num(flow.expires_at)) return failed('the login expired; log in again');
    if (!safeEqual(code, flow.code)) {
      await this.db
        .updateTable('simulated_login_flows')
        .set({ status: 'failed' })
        .where('id', '=', flowId)
        .execute();
      return failed('wrong e-mail code');
    }
    await this.db
      .updateTable('simulated_login_flows')
      .set({ status: 'done' })
      .where('id', '=', flowId)
      .execute();
    const user = await findUserRow(this.db, flow.user_id);
    if (!user) return failed();
    const left = num(flow.codes_left) - 1;
    if (left > 0) return this.sendCode(user.id, user.username, flowId, left);
    return this.session(user.id, user.username);
  }

  async logout(session: string): Promise<void> {
    await this.db.deleteFrom('simulated_sessions').where('token_hash', '=', sha256(session)).execute();
  }

  /** Whether `session` is a live session of `userId`. */
  async sessionOf(userId: string, session: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('simulated_sessions')
      .select('user_id')
      .where('token_hash', '=', sha256(session))
      .executeTakeFirst();
    return row?.user_id === userId;
  }

  /** Sets login secrets of an account; a new password ends every session of the account. */
  async setCredentials(userRef: string, input: SimCredentialsInput): Promise<void> {
    const user = await findUserRow(this.db, userRef);
    if (!user) throw new SimulatedPlatformError('user_not_found', `no user ${userRef}`);
    const current = await this.db
      .selectFrom('simulated_credentials')
      .selectAll()
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    const row = {
      user_id: user.id,
      password_salt: current?.password_salt ?? null,
      password_hash: current?.password_hash ?? null,
      email: input.email === undefined ? (current?.email ?? null) : input.email,
      totp_secret: input.totpSecret === undefined ? (current?.totp_secret ?? null) : input.totpSecret,
      email_codes: input.emailCodes ?? num(current?.email_codes ?? 0),
    };
    if (input.password !== undefined) {
      row.password_salt = randomBytes(16).toString('hex');
      row.password_hash = await hashPassword(input.password, row.password_salt);
    }
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('simulated_credentials').where('user_id', '=', user.id).execute();
      await trx.insertInto('simulated_credentials').values(row).execute();
      if (input.password !== undefined)
        await trx.deleteFrom('simulated_sessions').where('user_id', '=', user.id).execute();
    });
  }

  /** The codes e-mailed to an account, newest first. */
  async inbox(userRef: string): Promise<SimInboxMessage[]> {
    const user = await findUserRow(this.db, userRef);
    if (!user) throw new SimulatedPlatformError('user_not_found', `no user ${userRef}`);
    const rows = await this.db
      .selectFrom('simulated_login_flows')
      .selectAll()
      .where('user_id', '=', user.id)
      .orderBy('sent_at', 'desc')
      .limit(20)
      .execute();
    const now = this.clock.now();
    return rows.map((r) => ({
      code: r.code,
      sentAt: new Date(num(r.sent_at)).toISOString(),
      expiresAt: new Date(num(r.expires_at)).toISOString(),
      valid: r.status === 'waiting' && now <= num(r.expires_at),
    }));
  }

  /** E-mails a new code for the login `flowId` (its earlier code no longer works). */
  private async sendCode(
    userId: string,
    username: string,
    flowId: string,
    left: number,
  ): Promise<LoginOutcome> {
    const now = this.clock.now();
    const expiresAt = now + SIM_EMAIL_CODE_TTL_MS;
    await this.db.deleteFrom('simulated_login_flows').where('id', '=', flowId).execute();
    await this.db
      .insertInto('simulated_login_flows')
      .values({
        id: flowId,
        user_id: userId,
        code: sixDigits(),
        codes_left: left,
        status: 'waiting',
        sent_at: now,
        expires_at: expiresAt,
      })
      .execute();
    return { kind: 'email_code', flow: flowId, username, expiresAt };
  }

  private async session(userId: string, username: string): Promise<LoginOutcome> {
    const session = randomBytes(32).toString('base64url');
    await this.db
      .insertInto('simulated_sessions')
      .values({ token_hash: sha256(session), user_id: userId, created_at: this.clock.now() })
      .execute();
    return { kind: 'session', userId, username, session };
  }
}

async function hashPassword(password: string, salt: string): Promise<string> {
  return (await scryptAsync(password, salt, 32, SCRYPT)).toString('hex');
}

/** Compares two strings in constant time (lengths first). */
function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
