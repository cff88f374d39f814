/**
 * OAuth 2.1 as a strict independent client sees it: `oauth4webapi` (RFC 8414 discovery, RFC 9728 resource
 * metadata, RFC 7591 registration, code + PKCE + `resource`, RFC 9207 `iss`, refresh rotation, RFC 7009
 * revocation, and the error redirects of RFC 6749 4.1.2.1) against a listening server.
 */
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveInBrowser, type Listening, listen } from './listening.js';

const REDIRECT = 'http://127.0.0.1:8976/callback';
/** The test server is plain HTTP on loopback; oauth4webapi refuses that unless told. */
const insecure = { [oauth.allowInsecureRequests]: true } as const;

let at: Listening;
let as: oauth.AuthorizationServer;
let resource: string;

beforeAll(async () => {
  at = await listen(`svc_${'4a'.repeat(32)}`);
  resource = `${at.base}/mcp`;
});
afterAll(async () => at?.close());

async function register(metadata: Partial<oauth.OmitSymbolProperties<oauth.Client>>): Promise<oauth.Client> {
  const res = await oauth.dynamicClientRegistrationRequest(as, metadata, insecure);
  return oauth.processDynamicClientRegistrationResponse(res);
}

/** The authorization URL of a code + PKCE request, with its verifier and state. */
async function authorization(client: oauth.Client, extra: Record<string, string> = {}) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    resource,
    scope: 'mcp:tools',
    state,
    ...extra,
  }).toString();
  return { url, verifier, state };
}

/** The whole code flow for `client`: consent in the browser, `iss` and `state` checked, code exchanged. */
async function codeFlow(client: oauth.Client, auth: oauth.ClientAuth, email: string) {
  const { url, verifier, state } = await authorization(client);
  const callback = await approveInBrowser(at, url, email);
  const params = oauth.validateAuthResponse(as, client, callback, state);
  const res = await oauth.authorizationCodeGrantRequest(as, client, auth, params, REDIRECT, verifier, {
    ...insecure,
    additionalParameters: { resource },
  });
  return oauth.processAuthorizationCodeResponse(as, client, res);
}

async function accountWith(token: string): Promise<Response> {
  return oauth.protectedResourceRequest(
    token,
    'GET',
    new URL(`${at.base}/api/v1/account`),
    undefined,
    null,
    insecure,
  );
}

describe('oauth4webapi against the server', () => {
  it('discovers the authorization server from the resource metadata of /mcp', async () => {
    const rs = await oauth.processResourceDiscoveryResponse(
      new URL(resource),
      await oauth.resourceDiscoveryRequest(new URL(resource), insecure),
    );
    expect(rs.authorization_servers).toEqual([at.base]);
    const issuer = new URL(rs.authorization_servers![0]!);
    as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { ...insecure, algorithm: 'oauth2' }),
    );
    expect(as).toMatchObject({
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    });
  });

  it('registers a public client and runs code + PKCE + resource, with the iss check', async () => {
    const client = await register({ client_name: 'strict public', redirect_uris: [REDIRECT] });
    expect(client.token_endpoint_auth_method).toBe('none');
    const tokens = await codeFlow(client, oauth.None(), 'strict-public@localhost');
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect((await accountWith(tokens.access_token)).status).toBe(200);
  });

  it('refuses an authorization response whose iss is not the issuer', async () => {
    const client = await register({ client_name: 'iss check', redirect_uris: [REDIRECT] });
    const { url, state } = await authorization(client);
    const callback = await approveInBrowser(at, url, 'iss-check@localhost');
    expect(callback.searchParams.get('iss')).toBe(as.issuer);
    const forged = new URL(callback);
    forged.searchParams.set('iss', 'https://attacker.example');
    expect(() => oauth.validateAuthResponse(as, client, forged, state)).toThrow(/iss/);
    const missing = new URL(callback);
    missing.searchParams.delete('iss');
    expect(() => oauth.validateAuthResponse(as, client, missing, state)).toThrow(/iss/);
  });

  it('registers a confidential client (secret that never expires) and authenticates it with client_secret_post', async () => {
    const client = await register({
      client_name: 'strict confidential',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'client_secret_post',
    });
    expect(client.client_secret).toEqual(expect.any(String));
    expect(client.client_secret_expires_at).toBe(0);
    const tokens = await codeFlow(
      client,
      oauth.ClientSecretPost(client.client_secret as string),
      'conf@localhost',
    );
    expect((await accountWith(tokens.access_token)).status).toBe(200);
    const wrong = await oauth.refreshTokenGrantRequest(
      as,
      client,
      oauth.ClientSecretPost('wrong'),
      tokens.refresh_token!,
      insecure,
    );
    await expect(oauth.processRefreshTokenResponse(as, client, wrong)).rejects.toMatchObject({
      error: 'invalid_client',
    });
  });

  it('answers registration errors with the codes of RFC 7591', async () => {
    const badUri = oauth.dynamicClientRegistrationRequest(
      as,
      { client_name: 'bad uri', redirect_uris: ['http://example.com/callback'] },
      insecure,
    );
    await expect(oauth.processDynamicClientRegistrationResponse(await badUri)).rejects.toMatchObject({
      error: 'invalid_redirect_uri',
    });
    const badMeta = oauth.dynamicClientRegistrationRequest(
      as,
      { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'private_key_jwt' },
      insecure,
    );
    await expect(oauth.processDynamicClientRegistrationResponse(await badMeta)).rejects.toMatchObject({
      error: 'invalid_client_metadata',
    });
  });

  it('rotates refresh tokens, refuses a reused one, and revokes', async () => {
    const client = await register({ client_name: 'rotation', redirect_uris: [REDIRECT] });
    const first = await codeFlow(client, oauth.None(), 'rotation@localhost');
    const refresh = async (token: string) =>
      oauth.processRefreshTokenResponse(
        as,
        client,
        await oauth.refreshTokenGrantRequest(as, client, oauth.None(), token, {
          ...insecure,
          additionalParameters: { resource },
        }),
      );
    const second = await refresh(first.refresh_token!);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await accountWith(second.access_token)).status).toBe(200);
    await expect(refresh(first.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });

    const third = await codeFlow(client, oauth.None(), 'rotation@localhost');
    const revoked = await oauth.revocationRequest(as, client, oauth.None(), third.access_token, insecure);
    await expect(oauth.processRevocationResponse(revoked)).resolves.toBeUndefined();
    const refused = (await accountWith(third.access_token).catch((e: unknown) => e)) as Error;
    expect(refused).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    const challenge = refused as oauth.WWWAuthenticateChallengeError;
    expect(challenge.status).toBe(401);
    expect(challenge.cause[0]).toMatchObject({ scheme: 'bearer', parameters: { error: 'invalid_token' } });
  });

  it('names the Bearer scheme on every 401, a plain one included (RFC 6750 3, RFC 9110 11.6.1)', async () => {
    const bare = await fetch(`${at.base}/api/v1/account`);
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toMatch(/^Bearer realm="svc"$/);
    const wrongKey = await fetch(`${at.base}/api/v1/account`, {
      headers: { 'x-api-key': `svc_${'0'.repeat(64)}` },
    });
    expect(wrongKey.status).toBe(401);
    expect(wrongKey.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
    const refused = (await accountWith('not-a-token').catch(
      (e: unknown) => e,
    )) as oauth.WWWAuthenticateChallengeError;
    expect(refused).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    expect(refused.status).toBe(401);
    expect(refused.cause[0]).toMatchObject({ scheme: 'bearer', parameters: { error: 'invalid_token' } });
  });

  it.each<[string, Record<string, string>, string]>([
    ['code_challenge_method=plain', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['no code_challenge', { code_challenge: '' }, 'invalid_request'],
    ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
    ['an unknown scope', { scope: 'admin' }, 'invalid_scope'],
  ])('redirects a request with %s back to the client with error, state and iss', async (_, extra, error) => {
    const client = await register({ client_name: 'bad requests', redirect_uris: [REDIRECT] });
    const { url, state } = await authorization(client, extra);
    if (extra.code_challenge === '') url.searchParams.delete('code_challenge');
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const callback = new URL(res.headers.get('location')!);
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT);
    expect(callback.searchParams.get('state')).toBe(state);
    expect(() => oauth.validateAuthResponse(as, client, callback, state)).toThrow(
      oauth.AuthorizationResponseError,
    );
    try {
      oauth.validateAuthResponse(as, client, callback, state);
    } catch (err) {
      expect(err).toMatchObject({ error });
    }
  });

  it('does not redirect to a redirect URI the client did not register', async () => {
    const client = await register({ client_name: 'unregistered uri', redirect_uris: [REDIRECT] });
    const { url } = await authorization(client, { response_type: 'token' });
    url.searchParams.set('redirect_uri', 'http://127.0.0.1:9999/elsewhere');
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });
});
