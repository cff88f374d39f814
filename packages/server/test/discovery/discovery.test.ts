import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('discovery documents', () => {
  let t: TestServer;
  let base: string;
  beforeAll(async () => {
    t = await startTestServer('sqlite');
    base = t.server.services.publicUrl();
  });
  afterAll(async () => t?.close());

  it('serves the API catalog as an RFC 9727 linkset', async () => {
    const r = await t.request('GET', '/.well-known/api-catalog', { key: null });
    expect(r.status).toBe(200);
    expect(String(r.headers['content-type'])).toMatch(
      /^application\/linkset\+json; profile="https:\/\/www\.rfc-editor\.org\/info\/rfc9727"/,
    );
    expect(r.body.linkset).toHaveLength(1);
    const [entry] = r.body.linkset;
    expect(entry.anchor).toBe(`${base}/api/v1`);
    expect(entry['service-desc'].map((l: { href: string }) => l.href)).toEqual([
      `${base}/openapi.json`,
      `${base}/openapi.yaml`,
    ]);
    expect(entry['service-doc'][0].href).toBe(`${base}/docs`);
    expect(entry.status[0].href).toBe(`${base}/health`);
    // Every link of the catalog answers.
    for (const link of [
      ...entry['service-desc'],
      ...entry['service-doc'],
      ...entry['service-meta'],
      ...entry.status,
    ]) {
      const res = await t.request('GET', link.href.slice(base.length), { key: null });
      expect(res.status, link.href).toBe(200);
    }
  });

  it('answers the health check', async () => {
    const r = await t.request('GET', '/health', { key: null });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ok', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  });

  it('publishes the OAuth authorization server metadata of spec 5.3.1', async () => {
    const r = await t.request('GET', '/.well-known/oauth-authorization-server', { key: null });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/api/oauth/authorize`,
      token_endpoint: `${base}/api/oauth/token`,
      registration_endpoint: `${base}/api/oauth/register`,
      revocation_endpoint: `${base}/api/oauth/revoke`,
      scopes_supported: ['mcp:tools'],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_post'],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
    });
    expect(JSON.stringify(r.body.agent_auth)).toContain('anonymous');
    expect(JSON.stringify(r.body.agent_auth)).toContain('oauth_client');
    expect(JSON.stringify(r.body.agent_auth)).toContain('oauth_access_token');
  });

  it('publishes the protected resource metadata of /mcp', async () => {
    const r = await t.request('GET', '/.well-known/oauth-protected-resource/mcp', { key: null });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      resource: `${base}/mcp`,
      authorization_servers: [base],
      bearer_methods_supported: ['header'],
      scopes_supported: ['mcp:tools'],
    });
  });

  it('uses the public URL as {base_url}', async () => {
    const pub = await startTestServer('sqlite', { publicUrl: 'https://svc.example.com/' });
    try {
      const r = await pub.request('GET', '/.well-known/oauth-authorization-server', { key: null });
      expect(r.body.issuer).toBe('https://svc.example.com');
      const doc = await pub.request('GET', '/openapi.json', { key: null });
      expect(doc.body.servers).toEqual([{ url: 'https://svc.example.com' }]);
    } finally {
      await pub.close();
    }
  });

  it('serves the deprecation policy that deprecated responses link to', async () => {
    const account = await t.request('GET', '/api/v1/account');
    const link = String(account.headers.link);
    const target = /^<([^>]+)>; rel="deprecation"; type="text\/markdown"$/.exec(link)?.[1];
    expect(target).toBe(`${base}/docs/deprecations.md`);
    const r = await t.request('GET', target!.slice(base.length), { key: null });
    expect(r.status).toBe(200);
    expect(String(r.headers['content-type'])).toContain('text/markdown');
    expect(r.body).toContain('# Deprecation policy');
    expect(r.body).toContain('90 days');
    for (const item of ['monitorsAllowed', 'includeRaw', '`after` parameter']) expect(r.body).toContain(item);
    expect((await t.request('GET', '/docs/nope.md', { key: null })).status).toBe(404);
    const index = await t.request('GET', '/docs', { key: null });
    expect(index.body).toContain('/docs/deprecations.md');
  });
});
