import { timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { num } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { uuid } from '../ids/index.js';
import { randomToken, sha256 } from './keys.js';

/** The one scope of the service (spec 5.3). */
export const MCP_SCOPE = 'mcp:tools';
/** An authorization code works once, for this long (spec 8: 60 seconds). */
export const CODE_TTL_MS = 60_000;
/** Lifetime of an access token (`expires_in`). */
export const ACCESS_TOKEN_TTL_MS = 60 * 60_000;
/** Lifetime of a refresh token; each use rotates it (a new one, this long again). */
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60_000;
/** How long a consent page stays answerable. */
export const REQUEST_TTL_MS = 10 * 60_000;

/** Prefixes that make the kind of a credential recognisable in logs and in `Authorization` headers. */
export const ACCESS_TOKEN_PREFIX = 'xat_';
export const REFRESH_TOKEN_PREFIX = 'xrt_';
const CODE_PREFIX = 'xac_';
const SECRET_PREFIX = 'xcs_';

type Db = Kysely<Database>;

/** A client as the authorization flow sees it, registered or described by a metadata document. */
export interface OAuthClient {
  readonly id: string;
  readonly name: string;
  readonly redirectUris: readonly string[];
  readonly authMethod: 'none' | 'client_secret_post';
  /** SHA-256 hex of the secret of a confidential client. */
  readonly secretHash: string | null;
}

/** Registers a client (RFC 7591); a confidential one gets a secret, returned here once and stored hashed. */
export async function registerClient(
  db: Db,
  input: { name: string; redirectUris: readonly string[]; authMethod: OAuthClient['authMethod'] },
  now: number,
): Promise<{ client: OAuthClient; secret: string | undefined }> {
  const secret = input.authMethod === 'client_secret_post' ? `${SECRET_PREFIX}${randomToken()}` : undefined;
  const client: OAuthClient = {
    id: uuid(),
    name: input.name,
    redirectUris: [...new Set(input.redirectUris)],
    authMethod: input.authMethod,
    secretHash: secret ? sha256(secret) : null,
  };
  await db
    .insertInto('oauth_clients')
    .values({
      id: client.id,
      name: client.name,
      redirect_uris: JSON.stringify(client.redirectUris),
      auth_method: client.authMethod,
      secret_hash: client.secretHash,
      created_at: now,
    })
    .execute();
  return { client, secret };
}

/** A registered client by id, or undefined. */
export async function findClient(db: Db, id: string): Promise<OAuthClient | undefined> {
  const row = await db.selectFrom('oauth_clients').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    name: row.name,
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    authMethod: row.auth_method === 'client_secret_post' ? 'client_secret_post' : 'none',
    secretHash: row.secret_hash,
  };
}

/** True when `secret` is the client's secret (constant-time compare of the hashes). */
export function secretMatches(client: OAuthClient, secret: string | undefined): boolean {
  if (!client.secretHash || secret === undefined) return false;
  const a = Buffer.from(sha256(secret), 'hex');
  const b = Buffer.from(client.secretHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The validated parameters of an authorization request, kept while the user decides. */
export interface AuthorizationParams {
  readonly clientId: string;
  readonly clientName: string;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly resource: string;
  readonly scope: string;
  readonly state: string | undefined;
}

/** Stores a request awaiting the consent of `accountId`; the id is the unguessable handle of the form. */
export async function createRequest(
  db: Db,
  accountId: string,
  params: AuthorizationParams,
  now: number,
): Promise<string> {
  const id = randomToken();
  await db.deleteFrom('oauth_requests').where('expires_at', '<=', now).execute();
  await db
    .insertInto('oauth_requests')
    .values({
      id,
      account_id: accountId,
      client_id: params.clientId,
      params: JSON.stringify(params),
      created_at: now,
      expires_at: now + REQUEST_TTL_MS,
    })
    .execute();
  return id;
}

/**
 * Takes (and deletes) the pending request `id` of `accountId`: a decision is made once. Undefined when it
 * does not exist, belongs to another account or has expired.
 */
export async function takeRequest(
  db: Db,
  id: string,
  accountId: string,
  now: number,
): Promise<AuthorizationParams | undefined> {
  const row = await db
    .deleteFrom('oauth_requests')
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .returning(['params', 'expires_at'])
    .executeTakeFirst();
  if (!row || num(row.expires_at) <= now) return undefined;
  return JSON.parse(row.params) as AuthorizationParams;
}

/** Issues an authorization code for an approved request. */
export async function issueCode(
  db: Db,
  accountId: string,
  params: AuthorizationParams,
  now: number,
): Promise<string> {
  const code = `${CODE_PREFIX}${randomToken()}`;
  await db
    .insertInto('oauth_codes')
    .values({
      code_hash: sha256(code),
      family_id: uuid(),
      client_id: params.clientId,
      account_id: accountId,
      redirect_uri: params.redirectUri,
      code_challenge: params.codeChallenge,
      resource: params.resource,
      scope: params.scope,
      created_at: now,
      expires_at: now + CODE_TTL_MS,
      used_at: null,
    })
    .execute();
  return code;
}

/** A stored code, as redeemed. */
export interface CodeGrant {
  readonly familyId: string;
  readonly clientId: string;
  readonly accountId: string;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly resource: string;
  readonly scope: string;
  readonly expiresAt: number;
}

/**
 * Marks a code used and returns it. A code used before is a replay: every token issued from it is revoked
 * (RFC 9700 4.4) and `replayed` is answered; an unknown code is `unknown`.
 */
export async function redeemCode(
  db: Db,
  code: string,
  now: number,
): Promise<CodeGrant | 'unknown' | 'replayed'> {
  const hash = sha256(code);
  const used = await db
    .updateTable('oauth_codes')
    .set({ used_at: now })
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (!used) {
    const row = await db
      .selectFrom('oauth_codes')
      .select('family_id')
      .where('code_hash', '=', hash)
      .executeTakeFirst();
    if (!row) return 'unknown';
    await revokeFamily(db, row.family_id, now);
    return 'replayed';
  }
  return {
    familyId: used.family_id,
    clientId: used.client_id,
    accountId: used.account_id,
    redirectUri: used.redirect_uri,
    codeChallenge: used.code_challenge,
    resource: used.resource,
    scope: used.scope,
    expiresAt: num(used.expires_at),
  };
}

/** A new access and refresh token pair of one family. */
export interface TokenPair {
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly expiresInSeconds: number;
  readonly scope: string;
}

/** Issues an access token and a refresh token in `grant`'s family. */
export async function issueTokens(
  db: Db,
  grant: { familyId: string; clientId: string; accountId: string; scope: string; resource: string },
  now: number,
): Promise<TokenPair> {
  const accessToken = `${ACCESS_TOKEN_PREFIX}${randomToken()}`;
  const refreshToken = `${REFRESH_TOKEN_PREFIX}${randomToken()}`;
  const common = {
    family_id: grant.familyId,
    client_id: grant.clientId,
    account_id: grant.accountId,
    scope: grant.scope,
    resource: grant.resource,
    created_at: now,
    revoked_at: null,
  };
  await db
    .insertInto('oauth_tokens')
    .values([
      { ...common, token_hash: sha256(accessToken), kind: 'access', expires_at: now + ACCESS_TOKEN_TTL_MS },
      {
        ...common,
        token_hash: sha256(refreshToken),
        kind: 'refresh',
        expires_at: now + REFRESH_TOKEN_TTL_MS,
      },
    ])
    .execute();
  return { accessToken, refreshToken, expiresInSeconds: ACCESS_TOKEN_TTL_MS / 1000, scope: grant.scope };
}

/** A stored token, as looked up. */
export interface StoredToken {
  readonly kind: 'access' | 'refresh';
  readonly familyId: string;
  readonly clientId: string;
  readonly accountId: string;
  readonly scope: string;
  readonly resource: string;
  readonly expiresAt: number;
  readonly revokedAt: number | null;
}

/** A token by its value, whatever its state. */
export async function findToken(db: Db, token: string): Promise<StoredToken | undefined> {
  const row = await db
    .selectFrom('oauth_tokens')
    .selectAll()
    .where('token_hash', '=', sha256(token))
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    kind: row.kind === 'refresh' ? 'refresh' : 'access',
    familyId: row.family_id,
    clientId: row.client_id,
    accountId: row.account_id,
    scope: row.scope,
    resource: row.resource,
    expiresAt: num(row.expires_at),
    revokedAt: row.revoked_at === null ? null : num(row.revoked_at),
  };
}

/**
 * Rotates a refresh token: revokes it and answers its grant for a new pair, in one step so two concurrent
 * uses cannot both succeed. A revoked refresh token presented again is a replay (a stolen copy, or the
 * client's old one): the whole family is revoked.
 */
export async function rotateRefreshToken(
  db: Db,
  token: string,
  now: number,
): Promise<StoredToken | 'unknown' | 'replayed' | 'expired'> {
  const hash = sha256(token);
  const taken = await db
    .updateTable('oauth_tokens')
    .set({ revoked_at: now })
    .where('token_hash', '=', hash)
    .where('kind', '=', 'refresh')
    .where('revoked_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (!taken) {
    const known = await findToken(db, token);
    if (known?.kind !== 'refresh') return 'unknown';
    await revokeFamily(db, known.familyId, now);
    return 'replayed';
  }
  if (num(taken.expires_at) <= now) return 'expired';
  return {
    kind: 'refresh',
    familyId: taken.family_id,
    clientId: taken.client_id,
    accountId: taken.account_id,
    scope: taken.scope,
    resource: taken.resource,
    expiresAt: num(taken.expires_at),
    revokedAt: now,
  };
}

/** Revokes every token of a family (a code's or refresh token's replay, or the revocation of a refresh token). */
export async function revokeFamily(db: Db, familyId: string, now: number): Promise<void> {
  await db
    .updateTable('oauth_tokens')
    .set({ revoked_at: now })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
}

/**
 * Revokes a token (RFC 7009): an access token alone; a refresh token with its whole family (the access
 * tokens it produced stop working too). Unknown tokens are ignored.
 */
export async function revokeToken(db: Db, token: string, now: number): Promise<void> {
  const found = await findToken(db, token);
  if (!found) return;
  if (found.kind === 'refresh') return revokeFamily(db, found.familyId, now);
  await db
    .updateTable('oauth_tokens')
    .set({ revoked_at: now })
    .where('token_hash', '=', sha256(token))
    .where('revoked_at', 'is', null)
    .execute();
}
