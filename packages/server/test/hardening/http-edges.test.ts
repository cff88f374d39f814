import { PassThrough } from 'node:stream';
import { type AnyOperation, operations } from '@xsvc/sdk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/app/app.js';
import { MAX_CREDITS } from '../../src/core/billing/credits.js';
import { ManualClock } from '../../src/core/clock.js';
import { parseConfig } from '../../src/core/config.js';
import { defineFeature } from '../../src/core/feature.js';
import { SimulatedPlatform } from '../../src/platform/simulated/index.js';
import { asTestServer, startTestServer, type TestServer, testDatabase } from '../helpers/server.js';

/** The spec's error body (default contract): `{ error: <code>, message, ...details }`. */
const errorShape = (code: string) => expect.objectContaining({ error: code, message: expect.any(String) });

describe('HTTP edges: every failure in the spec shape, never a 500', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite');
  });
  afterAll(async () => t?.close());

  it('a session cookie that is not valid percent-encoding is no credential: 401', async () => {
    for (const cookie of ['session_token=%', 'session_token=%E0%A4%A', 'a=1; session_token=%zz']) {
      const r = await t.request('GET', '/api/v1/account', { key: null, headers: { cookie } });
      expect([r.status, r.body]).toEqual([401, errorShape('unauthenticated')]);
    }
  });

  it('answers framework failures in the spec shape: bad percent-encoding, long parameters, 413, 415', async () => {
    const bad = await t.request('GET', '/api/v1/x/tweets/%ff');
    expect([bad.status, bad.body]).toEqual([400, errorShape('invalid_input')]);
    const long = await t.request('GET', `/api/v1/x/tweets/${'1'.repeat(5_000)}`);
    expect([long.status, long.body]).toEqual([400, errorShape('invalid_input')]);
    const huge = await t.request('POST', '/api/v1/drafts', {
      rawBody: `{"text":"${'x'.repeat(2 * 1024 * 1024)}"}`,
    });
    expect([huge.status, huge.body]).toEqual([413, errorShape('body_too_large')]);
    const text = await t.request('POST', '/api/v1/drafts', {
      rawBody: 'hi',
      headers: { 'content-type': 'text/plain' },
    });
    expect([text.status, text.body]).toEqual([415, errorShape('unsupported_media_type')]);
    const broken = await t.request('POST', '/api/v1/drafts', {
      rawBody: 'x',
      headers: { 'content-type': '/' },
    });
    expect([broken.status, broken.body]).toEqual([415, errorShape('unsupported_media_type')]);
    // The opt-in contract's structured shape applies to them too.
    const optIn = await t.request('GET', '/api/v1/x/tweets/%ff', {
      headers: { 'svc-api-contract': '2026-04-29' },
    });
    expect(optIn.body).toEqual({
      error: { type: 'invalid_request_error', code: 'invalid_input', message: expect.any(String) },
    });
    expect(bad.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses form and multipart bodies on routes that do not take them (415)', async () => {
    const form = await t.request('POST', '/api/v1/drafts', {
      rawBody: 'text=hello',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect([form.status, form.body]).toEqual([415, errorShape('unsupported_media_type')]);
    const multi = await t.request('POST', '/api/v1/webhooks', {
      rawBody: '--b\r\nContent-Disposition: form-data; name="url"\r\n\r\nhttps://example.com/h\r\n--b--\r\n',
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
    });
    expect([multi.status, multi.body]).toEqual([415, errorShape('unsupported_media_type')]);
  });

  it('refuses text with a lone surrogate (compose, refine, drafts) with 400 invalid_input', async () => {
    const lone = 'ship \ud800 it';
    for (const body of [
      { step: 'compose', topic: lone },
      { step: 'refine', topic: lone, goal: 'engagement', tone: 'casual' },
    ]) {
      const r = await t.request('POST', '/api/v1/compose', { body });
      expect([r.status, r.body]).toEqual([400, errorShape('invalid_input')]);
      expect(r.body.message).toMatch(/topic.*surrogate/);
    }
    const draft = await t.request('POST', '/api/v1/drafts', { rawBody: '{"text":"\\udc00"}' });
    expect([draft.status, draft.body]).toEqual([400, errorShape('invalid_input')]);
  });

  it('bounds top-ups so that credits fit 64 bits; an approval past the largest balance changes nothing', async () => {
    const tooMany = await t.request('POST', '/api/v1/credits/topup', { body: { dollars: 1e15 } });
    expect([tooMany.status, tooMany.body]).toEqual([400, errorShape('invalid_input')]);
    const top = await t.request('POST', '/api/v1/credits/topup', { body: { dollars: 1_000_000 } });
    expect(top.status).toBe(200);
    const db = t.server.services.database.db;
    const near = MAX_CREDITS - 5n;
    await db.updateTable('accounts').set({ credits_balance: near }).where('is_owner', '=', 1).execute();
    const id = new URL(top.body.url).searchParams.get('session_id');
    const approve = await t.request('POST', `/checkout/${id}/approve`);
    expect([approve.status, approve.body]).toEqual([409, errorShape('invalid_input')]);
    const credits = await t.request('GET', '/api/v1/credits');
    expect(credits.body.balance).toBe(String(near));
    await db.updateTable('accounts').set({ credits_balance: 1_000_000n }).where('is_owner', '=', 1).execute();
  });

  it('accepts an empty JSON body on every operation that takes no body, as generated clients send it', async () => {
    const bodiless = (operations as readonly AnyOperation[]).filter((op) => !op.body && op.method !== 'GET');
    expect(bodiless.length).toBeGreaterThanOrEqual(10);
    for (const op of bodiless) {
      const url = op.path.replace(/\{\w+\}/g, 'x1');
      const plain = await t.request(op.method, url);
      const typed = await t.request(op.method, url, {
        rawBody: '',
        headers: { 'content-type': 'application/json' },
      });
      expect([op.id, typed.status], JSON.stringify(typed.body)).toEqual([op.id, plain.status]);
      if (plain.status >= 400) expect(typed.body).toEqual(plain.body);
      expect(typed.status, op.id).toBeLessThan(500);
    }
  });

  it('an operation with a body still refuses an empty JSON body (invalid_json)', async () => {
    const r = await t.request('POST', '/api/v1/drafts', { rawBody: '' });
    expect([r.status, r.body]).toEqual([400, errorShape('invalid_json')]);
  });
});

describe('the request id of a 500 is in the log', () => {
  it('logs the x-request-id of an unexpected error with it', async () => {
    const lines: string[] = [];
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
    const clock = new ManualClock();
    const { database, drop } = await testDatabase('sqlite');
    const cfg = parseConfig({ logLevel: 'error', seedSize: 'tiny', keyFile: '' });
    const boom = defineFeature({
      name: 'boom',
      handlers: {
        getHealth: async () => {
          throw new Error('boom');
        },
      },
    });
    const server = await buildServer(cfg, {
      database,
      clock,
      logStream: stream,
      platform: (services) => new SimulatedPlatform(services.database.db, services.clock),
      features: [boom],
    });
    const t = await asTestServer(server, cfg, clock, drop);
    try {
      const r = await t.request('GET', '/health', { key: null });
      expect([r.status, r.body]).toEqual([500, errorShape('internal_error')]);
      const id = String(r.headers['x-request-id']);
      expect(r.body.message).toContain(id);
      const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.reqId === id);
      expect(logged.length).toBeGreaterThan(0);
      expect(logged[0]).toMatchObject({
        level: 50,
        requestId: id,
        err: expect.objectContaining({ message: 'boom' }),
      });
    } finally {
      await t.close();
    }
  });
});

describe('HTTPS behind a reverse proxy on loopback (spec 1.2)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite', { publicUrl: 'https://svc.example.com', trustProxy: true });
  });
  afterAll(async () => t?.close());

  const get = (headers: Record<string, string>) =>
    t.server.app.inject({ method: 'GET', url: '/health?x=1', remoteAddress: '127.0.0.1', headers });

  it('redirects a plain-HTTP request forwarded by a local proxy with 301', async () => {
    for (const headers of [
      { 'x-forwarded-proto': 'http', 'x-forwarded-for': '203.0.113.9' },
      { 'x-forwarded-proto': 'http' },
    ]) {
      const r = await get(headers);
      expect([r.statusCode, r.headers.location]).toEqual([301, 'https://svc.example.com/health?x=1']);
    }
  });

  it('serves https forwarded requests and direct loopback requests', async () => {
    expect((await get({ 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(
      200,
    );
    expect((await get({})).statusCode).toBe(200);
  });

  it('redirects a plain-HTTP request from another host', async () => {
    const r = await t.server.app.inject({ method: 'GET', url: '/health', remoteAddress: '198.51.100.7' });
    expect(r.statusCode).toBe(301);
  });
});
