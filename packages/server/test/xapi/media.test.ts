import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { delay, HttpResponse, http, passthrough } from 'msw';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { WriteCommand } from '../../src/core/platform/account-writes.js';
import { PlatformWriteAmbiguousError } from '../../src/core/platform/platform.js';
import { X_SCOPES } from '../../src/platform/xapi/index.js';
import { downloadMedia } from '../../src/platform/xapi/media-download.js';
import { userClient } from '../../src/platform/xapi/user-client.js';
import { type XMediaOptions, xWrite } from '../../src/platform/xapi/writes.js';
import type { TestServer } from '../helpers/server.js';
import { write } from '../writes/helpers.js';
import { connectAccount, useXapiServer } from './accounts.js';
import { BASE, NOW, rejection, USER_TOKENS, useXServer, xroute } from './helpers.js';

const server = useXServer();
const ACCESS = 'user-access-media';
USER_TOKENS[ACCESS] = X_SCOPES;

/** What X received, in order: method, path, query and JSON body. */
let received: { method: string; path: string; query?: string; body?: Record<string, unknown> }[] = [];

/** An X route of the media upload that records what it got and answers `answer`. */
function xmedia(method: 'get' | 'post', path: string, answer: (n: number) => unknown) {
  let n = 0;
  return xroute(method, path, async (url, request) => {
    const body =
      method === 'post'
        ? ((await request.json().catch(() => undefined)) as Record<string, unknown>)
        : undefined;
    received.push({
      method: request.method,
      path: url.pathname,
      ...(url.search && { query: url.search }),
      ...(body && { body }),
    });
    const a = answer(n++);
    return (typeof a === 'function' ? await (a as () => Promise<Response> | Response)() : a) as object;
  });
}

/** A short MP4 (an `ftyp` box, then filler): 2,500 bytes, three 1 KiB segments. */
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.alloc(2488, 7)]);
/** A PNG's signature and a little more. */
const PNG = Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), Buffer.alloc(64, 1)]);

/** The X routes of one chunked upload: `finalize` and the status checks answer the given processing states. */
function chunkedRoutes(
  processing: readonly (Record<string, unknown> | undefined)[],
  appendAnswer?: (n: number) => unknown,
) {
  const state = (i: number) => {
    const info = processing[Math.min(i, processing.length - 1)];
    return { data: { id: '1880000000000000001', size: MP4.length, ...(info && { processing_info: info }) } };
  };
  return [
    xmedia('post', '/2/media/upload/initialize', () => ({
      data: { id: '1880000000000000001', media_key: '7_1880000000000000001', expires_after_secs: 86400 },
    })),
    xmedia(
      'post',
      '/2/media/upload/:id/append',
      appendAnswer ?? (() => ({ data: { expires_at: 1_900_000_000 } })),
    ),
    xmedia('post', '/2/media/upload/:id/finalize', () => state(0)),
    xmedia('get', '/2/media/upload', (n) => state(n + 1)),
  ];
}

/** Calls the write as the account, with the waits recorded instead of slept, 1 KiB segments. */
function writeAs(command: WriteCommand, media: Partial<XMediaOptions> = {}, timeoutMs = 2000) {
  const sleeps: number[] = [];
  const outcome = xWrite(
    {
      client: userClient({ accessToken: ACCESS, baseUrl: BASE, timeoutMs }),
      actor: { userId: '12', session: '' },
      now: () => NOW,
      media: {
        segmentBytes: 1024,
        wait: { maxStepMs: 5000, maxTotalMs: 12_000, sleep: async (ms) => void sleeps.push(ms) },
        ...media,
      },
    },
    command,
  );
  return { outcome, sleeps };
}

const VIDEO: WriteCommand = {
  action: 'upload_media',
  file: { bytes: new Uint8Array(MP4), mimeType: 'video/mp4' },
};

/**
 * A loopback media host: `/video.mp4`, `/image.png`, `/page.html`, `/huge.png` (over 5 MB, no length) and
 * `/redirect` (to the image).
 */
let host: Server;
let origin = '';
const served: string[] = [];
beforeAll(async () => {
  host = createServer((req: IncomingMessage, res: ServerResponse) => {
    served.push(req.url ?? '');
    if (req.url === '/video.mp4') res.writeHead(200, { 'content-type': 'video/mp4' }).end(MP4);
    else if (req.url === '/image.png') res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    else if (req.url === '/redirect') res.writeHead(302, { location: `${origin}/image.png` }).end();
    else if (req.url === '/page.html')
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
    else if (req.url === '/huge.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(PNG);
      const chunk = Buffer.alloc(1024 * 1024);
      for (let i = 0; i < 6; i++) res.write(chunk);
      res.end();
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => host.close(() => resolve())));

/** Lets requests to the loopback media host through the suite's msw server. */
const mediaHost = () => http.all(`${origin}/*`, () => passthrough());

beforeEach(() => {
  received = [];
  served.length = 0;
});

describe('X’s chunked upload of a video', () => {
  it('initializes, appends each segment in order, finalizes and waits for processing as X asks', async () => {
    server.use(
      ...chunkedRoutes([
        { state: 'pending', check_after_secs: 3 },
        { state: 'in_progress', check_after_secs: 2, progress_percent: 60 },
        { state: 'succeeded', progress_percent: 100 },
      ]),
    );
    const { outcome, sleeps } = writeAs(VIDEO);
    expect(await outcome).toMatchObject({
      ok: true,
      result: {
        type: 'media',
        id: '1880000000000000001',
        media: { id: '1880000000000000001', type: 'video', mimeType: 'video/mp4', sizeBytes: MP4.length },
      },
    });
    expect(sleeps).toEqual([3000, 2000]);
    const segments = received.filter((r) => r.path.endsWith('/append'));
    expect(Buffer.concat(segments.map((s) => Buffer.from(String(s.body?.media), 'base64')))).toEqual(MP4);
    expect(received.map((r) => [r.method, r.path, r.query, r.body?.segment_index])).toEqual([
      ['POST', '/2/media/upload/initialize', undefined, undefined],
      ['POST', '/2/media/upload/1880000000000000001/append', undefined, 0],
      ['POST', '/2/media/upload/1880000000000000001/append', undefined, 1],
      ['POST', '/2/media/upload/1880000000000000001/append', undefined, 2],
      ['POST', '/2/media/upload/1880000000000000001/finalize', undefined, undefined],
      ['GET', '/2/media/upload', '?media_id=1880000000000000001&command=STATUS', undefined],
      ['GET', '/2/media/upload', '?media_id=1880000000000000001&command=STATUS', undefined],
    ]);
    expect(received[0]?.body).toEqual({
      media_category: 'tweet_video',
      media_type: 'video/mp4',
      total_bytes: MP4.length,
    });
  });

  it('X failing the processing is x_rejected with X’s reason', async () => {
    server.use(
      ...chunkedRoutes([
        { state: 'pending', check_after_secs: 1 },
        { state: 'failed', error: { name: 'InvalidMedia', message: 'Unsupported video codec' } },
      ]),
    );
    const { outcome, sleeps } = writeAs(VIDEO);
    const res = await outcome;
    expect(res).toMatchObject({ ok: false, code: 'x_rejected' });
    expect(JSON.stringify(res)).toContain('Unsupported video codec');
    expect(sleeps).toEqual([1000]);
  });

  it('processing still pending is waited for within the bound, each wait capped, then given up', async () => {
    server.use(...chunkedRoutes([{ state: 'in_progress', check_after_secs: 60 }]));
    const { outcome, sleeps } = writeAs(VIDEO);
    expect(await outcome).toMatchObject({ ok: false, code: 'x_rejected' });
    expect(sleeps).toEqual([5000, 5000]);
    expect(received.filter((r) => r.method === 'GET')).toHaveLength(2);
  });

  it('an append X does not answer in time is ambiguous, and nothing after it is sent', async () => {
    server.use(
      ...chunkedRoutes([undefined], (n) =>
        n === 1
          ? async () => {
              await delay(1000);
              return HttpResponse.json({});
            }
          : { data: {} },
      ),
    );
    const { outcome } = writeAs(VIDEO, {}, 200);
    const err = await rejection(outcome);
    expect(err).toBeInstanceOf(PlatformWriteAmbiguousError);
    expect(err.message).toContain('did not answer in time');
    expect(received.map((r) => r.path.split('/').pop())).toEqual(['initialize', 'append', 'append']);
  });

  it('a post whose video X fails to process is not sent', async () => {
    server.use(
      mediaHost(),
      ...chunkedRoutes([{ state: 'failed', error: { message: 'Video too long' } }]),
      xmedia('post', '/2/tweets', () => ({ data: { id: '502', text: 'watch' } })),
    );
    const { outcome } = writeAs(
      { action: 'create_tweet', text: 'watch', media: [`${origin}/video.mp4`] },
      { download: { allowLoopback: true } },
    );
    expect(await outcome).toMatchObject({ ok: false, code: 'x_rejected' });
    expect(served).toEqual(['/video.mp4']);
    expect(received.map((r) => r.path)).not.toContain('/2/tweets');
  });

  it('refuses a file type X does not take without calling X', async () => {
    const { outcome } = writeAs({
      action: 'upload_media',
      file: { bytes: new Uint8Array(PNG), mimeType: 'image/avif' },
    });
    expect(await outcome).toMatchObject({ ok: false, code: 'x_rejected' });
    expect(received).toEqual([]);
  });
});

describe('media downloaded from a URL', () => {
  it('is refused by the SSRF guard without the loopback allowance, nothing fetched', async () => {
    server.use(mediaHost());
    const got = await downloadMedia(`${origin}/image.png`);
    expect(got).toMatchObject({ ok: false, code: 'media_download_failed' });
    expect(JSON.stringify(got)).toContain('XSVC_ALLOW_LOOPBACK_WEBHOOKS');
    const { outcome } = writeAs({ action: 'create_tweet', text: 'hi', media: ['http://10.0.0.1/a.png'] });
    expect(await outcome).toMatchObject({ ok: false, code: 'media_download_failed' });
    // A public-looking name that resolves to a private address is refused before any connection.
    const rebound = await downloadMedia('https://media.example.com/a.png', {
      resolver: async () => [{ address: '10.0.0.5', family: 4 }],
    });
    expect(rebound).toMatchObject({ ok: false, code: 'media_download_failed' });
    expect(JSON.stringify(rebound)).toContain('refused address');
    expect(served).toEqual([]);
    expect(received).toEqual([]);
  });

  it('a file larger than X takes is body_too_large, content that is not media unsupported_media_type', async () => {
    server.use(mediaHost());
    const opts = { allowLoopback: true };
    expect(await downloadMedia(`${origin}/huge.png`, opts)).toMatchObject({
      ok: false,
      code: 'body_too_large',
    });
    expect(await downloadMedia(`${origin}/page.html`, opts)).toMatchObject({
      ok: false,
      code: 'unsupported_media_type',
    });
    expect(await downloadMedia(`${origin}/missing.png`, opts)).toMatchObject({
      ok: false,
      code: 'media_download_failed',
    });
    const redirected = await downloadMedia(`${origin}/redirect`, opts);
    expect(redirected).toMatchObject({ ok: false, code: 'media_download_failed' });
    expect(JSON.stringify(redirected)).toContain('redirect, not followed');
    expect(served).toEqual(['/huge.png', '/page.html', '/missing.png', '/redirect']);
    expect(received).toEqual([]);
  });
});

describe('media URLs through the server (loopback allowed)', () => {
  const xapiServer = useXapiServer({ allowLoopbackWebhooks: true });
  let t: TestServer;
  beforeEach(async () => {
    t = xapiServer();
    await t.server.services.database.db.deleteFrom('x_accounts').execute();
    await connectAccount(t, { xUserId: '12', username: 'jack', accessToken: ACCESS, scope: X_SCOPES });
  });

  it('posts with a media URL: downloaded, uploaded as the account, attached by its id', async () => {
    server.use(
      mediaHost(),
      xmedia('post', '/2/media/upload', () => ({
        data: { id: '1880000000000000009', size: PNG.length, expires_after_secs: 86400 },
      })),
      xmedia('post', '/2/tweets', () => ({ data: { id: '501', text: 'look' } })),
    );
    const res = await write(t, 'POST', '/api/v1/x/tweets', {
      account: 'jack',
      text: 'look',
      media: [`${origin}/image.png`],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', result: { id: '501' } });
    expect(served).toEqual(['/image.png']);
    expect(received[0]).toMatchObject({
      path: '/2/media/upload',
      body: { media: PNG.toString('base64'), media_category: 'tweet_image' },
    });
    expect(received[1]).toEqual({
      method: 'POST',
      path: '/2/tweets',
      body: { text: 'look', media: { media_ids: ['1880000000000000009'] } },
    });
  });

  it('uploads a video from a url through the chunked upload', async () => {
    server.use(mediaHost(), ...chunkedRoutes([undefined]));
    const res = await write(t, 'POST', '/api/v1/x/media', { account: 'jack', url: `${origin}/video.mp4` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', mediaId: '1880000000000000001' });
    expect(received.filter((r) => r.path.endsWith('/append'))).toHaveLength(1);
  });

  it('an append whose answer is lost ends x_write_ambiguous and is never sent again', async () => {
    server.use(mediaHost(), ...chunkedRoutes([undefined], () => () => HttpResponse.error()));
    const key = randomUUID();
    const body = { account: 'jack', url: `${origin}/video.mp4` };
    const first = await write(t, 'POST', '/api/v1/x/media', body, { idempotencyKey: key });
    expect(first.body).toMatchObject({ terminal: true, safeToRetry: false, error: 'x_write_ambiguous' });
    const again = await write(t, 'POST', '/api/v1/x/media', body, { idempotencyKey: key });
    expect(again.body.id).toBe(first.body.id);
    expect(received.map((r) => r.path.split('/').pop())).toEqual(['initialize', 'append']);
  });

  it('a post whose media upload gets no answer was not sent: x_write_failed, safe to retry', async () => {
    server.use(
      mediaHost(),
      xmedia('post', '/2/media/upload', () => () => HttpResponse.error()),
      xmedia('post', '/2/tweets', () => ({ data: { id: '503', text: 'look' } })),
    );
    const res = await write(t, 'POST', '/api/v1/x/tweets', {
      account: 'jack',
      media: [`${origin}/image.png`],
    });
    expect(res.body).toMatchObject({ error: 'x_write_failed', safeToRetry: true });
    expect(received.map((r) => r.path)).toEqual(['/2/media/upload']);
  });

  it('a media URL of the wrong type is 415 unsupported_media_type, too large 413 body_too_large', async () => {
    server.use(mediaHost());
    const wrong = await write(t, 'POST', '/api/v1/x/tweets', {
      account: 'jack',
      media: [`${origin}/page.html`],
    });
    expect(wrong.status, JSON.stringify(wrong.body)).toBe(415);
    expect(wrong.body).toMatchObject({ error: 'unsupported_media_type' });
    const huge = await write(t, 'POST', '/api/v1/x/media', { account: 'jack', url: `${origin}/huge.png` });
    expect(huge.status, JSON.stringify(huge.body)).toBe(413);
    expect(huge.body).toMatchObject({ error: 'body_too_large' });
    expect(received).toEqual([]);
  });
});
