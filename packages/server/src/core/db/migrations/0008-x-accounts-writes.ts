import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: frozen migration
type AnyDb = Kysely<any>;

/**
 * Connected platform accounts (spec 2.13, 3.5) and durable writes (spec 2.16, 3.6, 4.13).
 *
 * - `x_accounts` gains the encrypted platform session (`session_enc`, AES-256-GCM; passwords are never
 *   stored), when it was obtained, and `updated_at`; one connection per account and platform user.
 * - `x_connection_attempts`: one row per connect or re-authentication (`xatt_` ids), readable while and after
 *   it runs; also the count behind the connect safety limit.
 * - `x_connection_challenges`: e-mail code challenges (`xch_` ids) with the platform's login state encrypted.
 * - `x_login_failures`: failed logins per account and username, and the cooldown they lead to.
 * - `write_actions`: one durable action per write, unique per account and `Idempotency-Key`.
 * - `server_secrets`: the generated secret that session encryption keys derive from, when
 *   `XSVC_SECRET_KEY` is not configured.
 * - `simulated_credentials`, `simulated_login_flows`, `simulated_sessions`, `simulated_uploads`, `simulated_write_receipts`: the simulated
 *   platform's side of logins (passwords as salted hashes, e-mailed codes, sessions), uploaded media and a
 *   receipt per performed write (so a write token is never performed twice and can be confirmed later).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('x_accounts').addColumn('session_enc', 'text').execute();
  await db.schema.alterTable('x_accounts').addColumn('cookies_obtained_at', 'bigint').execute();
  await db.schema.alterTable('x_accounts').addColumn('updated_at', 'bigint').execute();
  await db.schema
    .createIndex('x_accounts_account_user')
    .on('x_accounts')
    .columns(['account_id', 'x_user_id'])
    .unique()
    .execute();

  await db.schema
    .createTable('x_connection_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('challenge_id', 'text')
    .addColumn('x_account_id', 'text')
    .addColumn('error', 'text')
    .addColumn('reason', 'text')
    .addColumn('retryable', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('x_connection_attempts_account')
    .on('x_connection_attempts')
    .columns(['account_id', 'purpose', 'created_at'])
    .execute();

  await db.schema
    .createTable('x_connection_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('attempt_id', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('username_lower', 'text', (c) => c.notNull())
    .addColumn('x_account_id', 'text')
    .addColumn('flow_enc', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('x_connection_challenges_user')
    .on('x_connection_challenges')
    .columns(['account_id', 'username_lower', 'status'])
    .execute();

  await db.schema
    .createTable('x_login_failures')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('first_failed_at', 'bigint', (c) => c.notNull())
    .addColumn('cooldown_until', 'bigint')
    .execute();

  await db.schema
    .createTable('write_actions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('x_account_id', 'text', (c) => c.notNull())
    .addColumn('x_user_id', 'text', (c) => c.notNull())
    .addColumn('x_username', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text')
    .addColumn('target_id', 'text')
    .addColumn('target_username', 'text')
    .addColumn('result', 'text')
    .addColumn('error', 'text')
    .addColumn('message', 'text')
    .addColumn('retryable', 'integer', (c) => c.notNull())
    .addColumn('safe_to_retry', 'integer', (c) => c.notNull())
    .addColumn('send_dispatched_at', 'bigint')
    .addColumn('billing_status', 'text', (c) => c.notNull())
    .addColumn('credits', 'bigint', (c) => c.notNull())
    .addColumn('charged_at', 'bigint')
    .addColumn('billing_reason', 'text')
    .addColumn('confirmation_attempts', 'integer', (c) => c.notNull())
    .addColumn('confirmation_checked_at', 'bigint')
    .addColumn('confirmed_at', 'bigint')
    .addColumn('expires_at', 'bigint')
    .addColumn('completed_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('write_actions_account_key', ['account_id', 'idempotency_key'])
    .execute();
  await db.schema
    .createIndex('write_actions_x_account')
    .on('write_actions')
    .columns(['x_account_id', 'action', 'created_at'])
    .execute();

  await db.schema
    .createTable('server_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('simulated_credentials')
    .addColumn('user_id', 'text', (c) => c.primaryKey())
    .addColumn('password_salt', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('email', 'text')
    .addColumn('totp_secret', 'text')
    .addColumn('email_codes', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('simulated_login_flows')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('codes_left', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('simulated_login_flows_user')
    .on('simulated_login_flows')
    .columns(['user_id', 'sent_at'])
    .execute();

  await db.schema
    .createTable('simulated_sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('simulated_sessions_user')
    .on('simulated_sessions')
    .columns(['user_id'])
    .execute();

  await db.schema
    .createTable('simulated_uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('media_type', 'text', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('source_url', 'text')
    .addColumn('data', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('simulated_write_receipts')
    .addColumn('token', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const t of [
    'simulated_write_receipts',
    'simulated_uploads',
    'simulated_sessions',
    'simulated_login_flows',
    'simulated_credentials',
    'server_secrets',
    'write_actions',
    'x_login_failures',
    'x_connection_challenges',
    'x_connection_attempts',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
  await db.schema.dropIndex('x_accounts_account_user').ifExists().execute();
  for (const c of ['updated_at', 'cookies_obtained_at', 'session_enc']) {
    await db.schema.alterTable('x_accounts').dropColumn(c).execute();
  }
}
