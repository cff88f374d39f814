/**
 * CORS in a real browser (Debian's Chromium through playwright-core): a page served from one loopback origin
 * (`http://127.0.0.2:<port>`) loads the built SDK's ESM bundle and calls a server on another
 * (`http://127.0.0.1:<port>`) with an API key. With `XSVC_CORS_ORIGINS` naming the page's origin the calls
 * succeed, a POST with a JSON body and an idempotency key included, and the page reads an error's code and
 * request id; a server without it is unreachable from the page. Skips only when no Chromium is installed.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { XsvcServer } from '../../src/app/app.js';
import { bootstrapOwner } from '../../src/app/bootstrap.js';
import { createServer } from '../../src/app/server.js';
import { parseConfig } from '../../src/core/config.js';
import { findChromium, launchChromium } from '../dashboard/chromium.js';

const CHROMIUM = findChromium();
const SDK_BUNDLE = join(import.meta.dirname, '../../../sdk/dist/index.js');
const KEY = `svc_${randomBytes(32).toString('hex')}`;

if (!CHROMIUM)
  console.warn(
    'CORS browser test skipped: no Chromium found (set XSVC_CHROMIUM or `apt-get install chromium`)',
  );

/** The page: it imports the SDK and offers `window.calls(baseUrl, apiKey)`, which reports each call. */
const PAGE = `<!doctype html><html lang="en"><title>CORS</title><script type="module">
import { Xsvc } from '/sdk/index.js';
const report = async (call) => {
  try {
    return { ok: true, value: await call() };
  } catch (err) {
    return { ok: false, name: err.name, status: err.status, code: err.code, requestId: err.requestId };
  }
};
window.calls = async (baseUrl, apiKey) => {
  const xsvc = new Xsvc({ baseUrl, apiKey, maxRetries: 0, timeoutMs: 5000 });
  return {
    account: await report(async () => (await xsvc.account.get()).plan),
    createKey: await report(async () => (await xsvc.apiKeys.create({ name: 'from-a-page' })).name),
    missing: await report(() => xsvc.draws.get('0192f3c4-0000-7000-8000-000000000001')),
  };
};
window.ready = true;
</script></html>`;

/** Serves the page and the SDK bundle on 127.0.0.2 (another origin than the servers on 127.0.0.1). */
async function startPageServer(): Promise<{ server: Server; origin: string }> {
  const bundle = readFileSync(SDK_BUNDLE);
  const server = createHttpServer((req, res) => {
    if (req.url === '/sdk/index.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(bundle);
    } else if (req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  return { server, origin: `http://127.0.0.2:${(server.address() as AddressInfo).port}` };
}

/** A listening server with the owner's key, CORS open to `corsOrigins` (none: CORS off). */
async function startApi(corsOrigins: string | undefined): Promise<{ server: XsvcServer; base: string }> {
  const config = parseConfig({
    databaseUrl: ':memory:',
    seedSize: 'tiny',
    logLevel: 'silent',
    keyFile: '',
    bootstrapApiKey: KEY,
    ...(corsOrigins !== undefined && { corsOrigins }),
  });
  const server = await createServer(config);
  await bootstrapOwner(server.services.database, config, Date.now());
  return { server, base: await server.app.listen({ port: 0, host: '127.0.0.1' }) };
}

// biome-ignore lint/suspicious/noExplicitAny: the page's report, checked field by field
type Report = Record<string, any>;

describe.skipIf(!CHROMIUM)('CORS from a page on another origin, in headless Chromium', () => {
  let pages: { server: Server; origin: string };
  let open: { server: XsvcServer; base: string };
  let closed: { server: XsvcServer; base: string };
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    if (!existsSync(SDK_BUNDLE)) throw new Error('the SDK is not built: run `pnpm -C packages/sdk build`');
    pages = await startPageServer();
    open = await startApi(pages.origin);
    closed = await startApi(undefined);
    browser = await launchChromium(String(CHROMIUM));
    page = await (await browser.newContext()).newPage();
    await page.goto(`${pages.origin}/`);
    await page.waitForFunction('window.ready === true');
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (pages ? pages.server.close(() => resolve()) : resolve()));
    await open?.server.close();
    await closed?.server.close();
  });

  const calls = (base: string): Promise<Report> =>
    page.evaluate(
      ([b, k]) => (window as unknown as { calls: (b: string, k: string) => Report }).calls(b, k),
      [base, KEY] as const,
    );

  it('calls a server whose XSVC_CORS_ORIGINS names the page: reads, a JSON POST, an error', async () => {
    const r = await calls(open.base);
    expect(r.account).toEqual({ ok: true, value: 'active' });
    expect(r.createKey).toEqual({ ok: true, value: 'from-a-page' });
    // The error body and the exposed x-request-id header are readable by the page.
    expect(r.missing).toMatchObject({ ok: false, name: 'NotFoundError', status: 404, code: 'not_found' });
    expect(r.missing.requestId).toMatch(/^[0-9a-f-]{36}$/);
    const keys = await open.server.app.inject({ url: '/api/v1/api-keys', headers: { 'x-api-key': KEY } });
    expect(JSON.parse(keys.body).keys.map((k: { name: string }) => k.name)).toContain('from-a-page');
  });

  it('cannot call a server without XSVC_CORS_ORIGINS: the browser blocks every call', async () => {
    const r = await calls(closed.base);
    for (const name of ['account', 'createKey', 'missing'])
      expect(r[name], name).toMatchObject({ ok: false, name: 'ConnectionError', status: undefined });
    // The preflight was refused, so the POST never reached the server.
    const keys = await closed.server.app.inject({ url: '/api/v1/api-keys', headers: { 'x-api-key': KEY } });
    expect(JSON.parse(keys.body).keys.map((k: { name: string }) => k.name)).not.toContain('from-a-page');
  });
});
