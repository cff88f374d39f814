import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { sessionHeaders } from './credentials.js';

/** The server's own origin in these tests (the public URL). */
const OWN = 'https://svc.example.com';

/** A multipart body as a browser's form would send it. */
async function multipart(fields: Record<string, string>): Promise<{ body: string; type: string }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  const request = new Request('http://form.invalid/', { method: 'POST', body: form });
  return { body: await request.text(), type: request.headers.get('content-type') ?? '' };
}

describe('CSRF: state changes authenticated by the session cookie come from the server own origin', () => {
  let t: TestServer & { accountId?: string };
  let cookie: Record<string, string>;
  beforeAll(async () => {
    t = await startTestServer('sqlite', { publicUrl: OWN });
    const owner = await t.server.services.database.db
      .selectFrom('accounts')
      .select('id')
      .where('is_owner', '=', 1)
      .executeTakeFirstOrThrow();
    cookie = await sessionHeaders(t, owner.id);
  });
  afterAll(async () => t?.close());

  /** Sends as the browser would: cookie, where the page came from, and a body. */
  const send = (
    method: 'POST' | 'DELETE',
    url: string,
    from: Record<string, string>,
    body: { raw: string; type: string },
  ) =>
    t.request(method, url, {
      key: null,
      rawBody: body.raw,
      headers: { ...cookie, ...from, 'content-type': body.type, 'x-forwarded-proto': 'https' },
    });
  const counts = async () => ({
    drafts: (await t.request('GET', '/api/v1/drafts')).body.drafts.length as number,
    tickets: (await t.request('GET', '/api/v1/support/tickets')).body.tickets.length as number,
    webhooks: (await t.request('GET', '/api/v1/webhooks')).body.webhooks.length as number,
  });

  const CROSS = [
    { origin: 'https://evil.example.com' },
    { origin: 'https://app.svc.example.com' }, // a sibling subdomain
    { origin: 'http://127.0.0.1:5173' }, // another localhost port
    { origin: 'null' },
    { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example.com' },
    { 'sec-fetch-site': 'same-site', origin: 'https://app.svc.example.com' },
  ];

  it('refuses cross-origin form, multipart and JSON requests with 403 and changes nothing', async () => {
    const before = await counts();
    const ticket = await multipart({ subject: 'Hi', body: 'from elsewhere' });
    for (const from of CROSS) {
      const requests = [
        send('POST', '/api/v1/drafts', from, {
          raw: 'text=pwned',
          type: 'application/x-www-form-urlencoded',
        }),
        send('POST', '/api/v1/support/tickets', from, { raw: ticket.body, type: ticket.type }),
        send('POST', '/api/v1/drafts', from, { raw: '{"text":"pwned"}', type: 'application/json' }),
        send('POST', '/api/v1/webhooks', from, {
          raw: 'url=https%3A%2F%2Fevil.example.com%2Fh',
          type: 'application/x-www-form-urlencoded',
        }),
        send('POST', '/api/v1/monitors', from, { raw: 'username=jack', type: 'text/plain' }),
      ];
      for (const r of await Promise.all(requests)) {
        expect([r.status, r.body.error], JSON.stringify(from)).toEqual([403, 'forbidden']);
      }
    }
    expect(await counts()).toEqual(before);
  });

  it('refuses a cross-origin approval of a checkout by the owner session; the page own form works', async () => {
    const top = await t.request('POST', '/api/v1/credits/topup', { body: { dollars: 10 } });
    const path = `/checkout/${new URL(top.body.url).searchParams.get('session_id')}/approve`;
    const form = { raw: '', type: 'application/x-www-form-urlencoded' };
    const cross = await send('POST', path, { origin: 'https://evil.example.com' }, form);
    expect([cross.status, cross.body.error]).toEqual([403, 'forbidden']);
    const id = path.split('/')[2];
    const status = () => t.request('GET', `/api/v1/credits/topup/status?session_id=${id}`);
    expect((await status()).body.status).toBe('processing');
    const own = await send('POST', path, { origin: OWN, 'sec-fetch-site': 'same-origin' }, form);
    expect(own.status).toBe(303);
    expect((await status()).body.status).toBe('paid');
  });

  it('serves the same requests from the server own origin', async () => {
    const before = await counts();
    for (const from of [{ origin: OWN }, { 'sec-fetch-site': 'same-origin', origin: OWN }, {}]) {
      const json = await send('POST', '/api/v1/drafts', from, {
        raw: '{"text":"mine"}',
        type: 'application/json',
      });
      expect(json.status, JSON.stringify(json.body)).toBe(201);
      const ticket = await multipart({ subject: 'Hi', body: 'from my own page' });
      const multi = await send('POST', '/api/v1/support/tickets', from, {
        raw: ticket.body,
        type: ticket.type,
      });
      expect(multi.status, JSON.stringify(multi.body)).toBe(201);
    }
    const after = await counts();
    expect([after.drafts - before.drafts, after.tickets - before.tickets]).toEqual([3, 3]);
  });

  it('does not apply to API keys (a browser never sends them by itself)', async () => {
    const r = await t.request('POST', '/api/v1/drafts', {
      body: { text: 'scripted' },
      headers: { origin: 'https://evil.example.com', ...cookie, 'x-forwarded-proto': 'https' },
    });
    expect(r.status).toBe(201);
  });
});
