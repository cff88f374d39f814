/**
 * The tables owned by `core/auth` (accounts, API keys, browser sessions, sign-in links, OAuth grants): their
 * row types, and their names. Only code under `core/auth` writes them; any code may read them through
 * `Database`. `core/db/schema.ts` lists them in `Database`.
 */
import type { Int } from '../db/columns.js';

/** The tables `core/auth` owns. */
export const AUTH_TABLES = [
  'accounts',
  'api_keys',
  'sessions',
  'magic_links',
  'oauth_clients',
  'oauth_requests',
  'oauth_codes',
  'oauth_tokens',
] as const;

export interface AccountsTable {
  id: string;
  email: string;
  plan: string;
  /** End of the period the last subscription checkout paid for (epoch ms); null: a plan with no period. */
  plan_renews_at: Int | null;
  locale: string;
  x_username: string | null;
  credits_balance: Int;
  lifetime_purchased: Int;
  lifetime_used: Int;
  auto_topup_enabled: Int;
  auto_topup_amount_dollars: Int;
  auto_topup_threshold: Int;
  is_owner: Int;
  created_at: Int;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  name: string;
  /** The first characters of the key (`svc_1a2b`), shown in listings. */
  prefix: string;
  /** SHA-256 hex of the full key; the key itself is never stored. */
  hash: string;
  created_at: Int;
  last_used_at: Int | null;
  revoked_at: Int | null;
}

export interface SessionsTable {
  /** SHA-256 hex of the `session_token` cookie value. */
  token_hash: string;
  account_id: string;
  created_at: Int;
  expires_at: Int;
}

export interface MagicLinksTable {
  token_hash: string;
  email: string;
  created_at: Int;
  expires_at: Int;
  used_at: Int | null;
}

/** A registered OAuth client (dynamic registration, spec 5.3.3). */
export interface OAuthClientsTable {
  id: string;
  name: string;
  /** JSON array of the exact redirect URIs. */
  redirect_uris: string;
  auth_method: string;
  /** SHA-256 hex of the `client_secret_post` secret. */
  secret_hash: string | null;
  created_at: Int;
}

/** An authorization request waiting for the signed-in user's consent. */
export interface OAuthRequestsTable {
  id: string;
  account_id: string;
  client_id: string;
  /** JSON of the validated authorize parameters. */
  params: string;
  created_at: Int;
  expires_at: Int;
}

/** An authorization code (hash only; 60 seconds, single use). */
export interface OAuthCodesTable {
  code_hash: string;
  /** The token family the code's tokens belong to (a replayed code revokes it). */
  family_id: string;
  client_id: string;
  account_id: string;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  scope: string;
  created_at: Int;
  expires_at: Int;
  used_at: Int | null;
}

/** An OAuth access or refresh token (hash only). */
export interface OAuthTokensTable {
  token_hash: string;
  kind: 'access' | 'refresh';
  family_id: string;
  client_id: string;
  account_id: string;
  scope: string;
  resource: string;
  created_at: Int;
  expires_at: Int;
  revoked_at: Int | null;
}
