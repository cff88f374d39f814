import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPPORT_LIMITS } from '../../src/features/support/limits.js';
import { otherAccount } from '../composition/helpers.js';
import { ENGINES, startTestServer, type TestServer } from '../helpers/server.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are JSON checked field by field by the assertions
type Json = any;

const PNG = Buffer.concat([
  Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
  Buffer.from('fake image body 0123456789'),
]);

/** A multipart body of text fields and files, as a browser or the SDK would send it. */
async function multipart(
  fields: Record<string, string>,
  files: { name: string; type: string; bytes: Buffer; field?: string }[] = [],
): Promise<{ payload: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files)
    form.append(f.field ?? 'attachments', new Blob([new Uint8Array(f.bytes)], { type: f.type }), f.name);
  const res = new Response(form);
  return {
    payload: Buffer.from(await res.arrayBuffer()),
    contentType: res.headers.get('content-type') ?? '',
  };
}

describe.each(ENGINES)('support tickets (%s)', (engine) => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer(engine);
  });
  afterAll(() => t.close());

  /** Sends a multipart request as `key` (the owner by default). */
  async function sendForm(
    method: 'POST',
    url: string,
    form: { payload: Buffer; contentType: string },
    opts: { key?: string; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; body: Json; headers: Json }> {
    const res = await t.server.app.inject({
      method,
      url,
      payload: form.payload,
      headers: { 'x-api-key': opts.key ?? t.key, 'content-type': form.contentType, ...opts.headers },
    });
    return {
      status: res.statusCode,
      body: res.body ? JSON.parse(res.body) : undefined,
      headers: res.headers,
    };
  }

  it('create → reply with an attachment → status change → the owner downloads the file; others get 404', async () => {
    const created = await t.request('POST', '/api/v1/support/tickets', {
      body: { subject: 'Webhook deliveries failing', body: 'Since 12:00 UTC every delivery fails.' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.publicId).toMatch(/^TCK-[0-9A-Z]{8}$/);
    expect(created.body.attachments).toEqual([]);
    const id = created.body.publicId;

    t.clock.advance(1_000);
    const form = await multipart({ body: 'Here is a screenshot.' }, [
      { name: 'shot.png', type: 'image/png', bytes: PNG },
    ]);
    const reply = await sendForm('POST', `/api/v1/support/tickets/${id}/messages`, form);
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body.publicId).toBe(id);
    expect(reply.body.attachments).toHaveLength(1);
    expect(reply.body.attachments).toEqual([
      { publicId: expect.stringMatching(/^att_\d+$/), status: 'ready' },
    ]);
    const att = { id: reply.body.attachments[0].publicId as string };

    t.clock.advance(1_000);
    const resolved = await t.request('PATCH', `/api/v1/support/tickets/${id}`, {
      body: { status: 'resolved' },
    });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toEqual({ publicId: id, status: 'resolved' });

    const ticket = await t.request('GET', `/api/v1/support/tickets/${id}`);
    expect(ticket.status).toBe(200);
    expect(ticket.body.status).toBe('resolved');
    expect(ticket.body.messages.map((m: Json) => m.body)).toEqual([
      'Since 12:00 UTC every delivery fails.',
      'Here is a screenshot.',
    ]);
    expect(ticket.body.messages.map((m: Json) => m.sender)).toEqual(['user', 'user']);
    expect(ticket.body.messages[0].attachments).toEqual([]);
    expect(ticket.body.messages[1].attachments).toEqual([
      {
        publicId: att.id,
        filename: 'shot.png',
        contentType: 'image/png',
        kind: 'image',
        sizeBytes: PNG.length,
        status: 'ready',
        url: expect.stringMatching(new RegExp(`^https?://[^/]+/api/v1/support/attachments/${att.id}$`)),
      },
    ]);
    expect(ticket.body.updatedAt).toBe(new Date(t.clock.now()).toISOString());

    const list = await t.request('GET', '/api/v1/support/tickets');
    expect(list.body.tickets).toEqual([
      expect.objectContaining({
        publicId: id,
        status: 'resolved',
        messageCount: 2,
        subject: 'Webhook deliveries failing',
      }),
    ]);

    const file = await t.server.app.inject({
      method: 'GET',
      url: `/api/v1/support/attachments/${att.id}`,
      headers: { 'x-api-key': t.key },
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['content-disposition']).toContain('filename="shot.png"');
    expect(file.rawPayload.equals(PNG)).toBe(true);

    const part = await t.server.app.inject({
      method: 'GET',
      url: `/api/v1/support/attachments/${att.id}`,
      headers: { 'x-api-key': t.key, range: 'bytes=0-7' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-7/${PNG.length}`);
    expect(part.rawPayload.equals(PNG.subarray(0, 8))).toBe(true);
    const outside = await t.request('GET', `/api/v1/support/attachments/${att.id}`, {
      headers: { range: `bytes=${PNG.length}-` },
    });
    expect([outside.status, outside.body.error]).toEqual([416, 'invalid_range']);
    expect(outside.headers['content-range']).toBe(`bytes */${PNG.length}`);
    const badRange = await t.request('GET', `/api/v1/support/attachments/${att.id}`, {
      headers: { range: 'lines=1-2' },
    });
    expect([badRange.status, badRange.body.error]).toEqual([400, 'invalid_range']);

    const other = await otherAccount(t);
    const stolen = await t.request('GET', `/api/v1/support/attachments/${att.id}`, { key: other.key });
    expect([stolen.status, stolen.body.error]).toEqual([404, 'not_found']);
    const peek = await t.request('GET', `/api/v1/support/tickets/${id}`, { key: other.key });
    expect([peek.status, peek.body.error]).toEqual([404, 'not_found']);
    const theirs = await t.request('GET', '/api/v1/support/tickets', { key: other.key });
    expect(theirs.body.tickets).toEqual([]);
    const meddle = await t.request('PATCH', `/api/v1/support/tickets/${id}`, {
      key: other.key,
      body: { status: 'closed' },
    });
    expect(meddle.status).toBe(404);
    const butt = await t.request('POST', `/api/v1/support/tickets/${id}/messages`, {
      key: other.key,
      body: { body: 'hi' },
    });
    expect(butt.status).toBe(404);
  });

  it('moves between states as allowed; a reply reopens; in_progress is staff-only', async () => {
    const { body } = await t.request('POST', '/api/v1/support/tickets', {
      body: { subject: 'States', body: 'x' },
    });
    const url = `/api/v1/support/tickets/${body.publicId}`;
    const set = (status: string) => t.request('PATCH', url, { body: { status } });
    expect((await set('closed')).status).toBe(200);
    const direct = await set('resolved');
    expect([direct.status, direct.body.error]).toEqual([400, 'invalid_input']);
    expect(direct.body.message).toContain('reopen');
    expect((await set('open')).body.status).toBe('open');
    expect((await set('open')).status).toBe(200);
    const staff = await set('in_progress');
    expect([staff.status, staff.body.error]).toEqual([400, 'invalid_input']);
    expect((await set('resolved')).status).toBe(200);
    await t.request('POST', `${url}/messages`, { body: { body: 'It broke again.' } });
    const after = await t.request('GET', url);
    expect(after.body.status).toBe('open');
    const missing = await t.request('PATCH', '/api/v1/support/tickets/TCK-NOPE0000', {
      body: { status: 'closed' },
    });
    expect([missing.status, missing.body.error]).toEqual([404, 'not_found']);
  });

  it('refuses bad input: blank fields, bad file types and sizes', async () => {
    const cases: unknown[] = [
      { subject: '   ', body: 'x' },
      { subject: 'x' },
      { subject: 'x', body: 'y'.repeat(10_001) },
    ];
    for (const body of cases) {
      const r = await t.request('POST', '/api/v1/support/tickets', { body });
      expect([r.status, r.body.error]).toEqual([400, 'invalid_input']);
    }
    const exe = await multipart({ subject: 'Files', body: 'see file' }, [
      { name: 'tool.exe', type: 'application/x-msdownload', bytes: Buffer.from('MZ binary') },
    ]);
    const r415 = await sendForm('POST', '/api/v1/support/tickets', exe);
    expect([r415.status, r415.body.error]).toEqual([415, 'unsupported_media_type']);
    const liar = await multipart({ subject: 'Files', body: 'see file' }, [
      { name: 'fake.png', type: 'image/png', bytes: Buffer.from('not a png at all') },
    ]);
    expect((await sendForm('POST', '/api/v1/support/tickets', liar)).status).toBe(415);
    const big = await multipart({ subject: 'Files', body: 'see file' }, [
      { name: 'big.txt', type: 'text/plain', bytes: Buffer.alloc(SUPPORT_LIMITS.attachmentBytes + 1, 97) },
    ]);
    const r413 = await sendForm('POST', '/api/v1/support/tickets', big);
    expect([r413.status, r413.body.error]).toEqual([413, 'body_too_large']);
    const many = await multipart(
      { subject: 'Files', body: 'see files' },
      Array.from({ length: SUPPORT_LIMITS.attachmentsPerMessage + 1 }, (_, i) => ({
        name: `n${i}.txt`,
        type: 'text/plain',
        bytes: Buffer.from(`note ${i}`),
      })),
    );
    expect((await sendForm('POST', '/api/v1/support/tickets', many)).status).toBe(400);
    const noSubject = await multipart({ body: 'no subject' });
    expect((await sendForm('POST', '/api/v1/support/tickets', noSubject)).body.error).toBe('invalid_input');
    // Nothing refused was stored.
    const list = await t.request('GET', '/api/v1/support/tickets');
    expect(list.body.tickets.some((x: Json) => x.subject === 'Files')).toBe(false);
  });

  it('answers a repeated Idempotency-Key with the first receipt, another body with 409', async () => {
    const headers = { 'idempotency-key': 'ticket-key-0001' };
    const first = await t.request('POST', '/api/v1/support/tickets', {
      headers,
      body: { subject: 'Once', body: 'only once' },
    });
    expect(first.status).toBe(201);
    const again = await t.request('POST', '/api/v1/support/tickets', {
      headers,
      body: { subject: 'Once', body: 'only once' },
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const other = await t.request('POST', '/api/v1/support/tickets', {
      headers,
      body: { subject: 'Once', body: 'changed' },
    });
    expect([other.status, other.body.error]).toEqual([409, 'idempotency_key_conflict']);
    const bad = await t.request('POST', '/api/v1/support/tickets', {
      headers: { 'idempotency-key': 'short' },
      body: { subject: 'x', body: 'y' },
    });
    expect([bad.status, bad.body.error]).toEqual([400, 'invalid_idempotency_key']);
    const list = await t.request('GET', '/api/v1/support/tickets');
    expect(list.body.tickets.filter((x: Json) => x.subject === 'Once')).toHaveLength(1);
  });

  it('throttles messages and attachments per hour with 429 and Retry-After', async () => {
    const other = await otherAccount(t);
    const files = Array.from({ length: 5 }, (_, i) => ({
      name: `f${i}.txt`,
      type: 'text/plain',
      bytes: Buffer.from(`log ${i}`),
    }));
    let ticket = '';
    for (let i = 0; i < 4; i++) {
      const r = await sendForm(
        'POST',
        '/api/v1/support/tickets',
        await multipart({ subject: `s${i}`, body: 'b' }, files),
        {
          key: other.key,
        },
      );
      expect(r.status).toBe(201);
      ticket = r.body.publicId;
    }
    const media = await sendForm(
      'POST',
      `/api/v1/support/tickets/${ticket}/messages`,
      await multipart({ body: 'one more file' }, files.slice(0, 1)),
      { key: other.key },
    );
    expect([media.status, media.body.error]).toEqual([429, 'support_media_rate_limit']);
    expect(Number(media.headers['retry-after'])).toBeGreaterThan(0);
    for (let i = 4; i < SUPPORT_LIMITS.requestsPerWindow; i++) {
      const r = await t.request('POST', `/api/v1/support/tickets/${ticket}/messages`, {
        key: other.key,
        body: { body: `m${i}` },
      });
      expect(r.status).toBe(201);
    }
    const limited = await t.request('POST', `/api/v1/support/tickets/${ticket}/messages`, {
      key: other.key,
      body: { body: 'more' },
    });
    expect([limited.status, limited.body.error]).toEqual([429, 'support_request_rate_limit']);
    expect(limited.body.retryAfter).toBe(Number(limited.headers['retry-after']));
    t.clock.advance(limited.body.retryAfter * 1000);
    const later = await t.request('POST', `/api/v1/support/tickets/${ticket}/messages`, {
      key: other.key,
      body: { body: 'later' },
    });
    expect(later.status).toBe(201);
  });

  it('needs credentials', async () => {
    expect((await t.request('GET', '/api/v1/support/tickets', { key: null })).status).toBe(401);
    expect((await t.request('GET', '/api/v1/support/attachments/att_1', { key: null })).status).toBe(401);
    const missing = await t.request('GET', '/api/v1/support/attachments/att_1');
    expect([missing.status, missing.body.error]).toEqual([404, 'not_found']);
  });
});
