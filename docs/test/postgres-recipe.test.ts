/**
 * The "Postgres and several instances" recipe of guides/server.md, run as written: two `xsvc-server`
 * processes on one Postgres database behind a round-robin balancer. A monitor and a webhook made through the
 * balancer deliver a simulated tweet exactly once, signed, whichever instance checks and delivers it; an API key
 * made on one instance works on the other.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { verifyWebhook } from '@xsvc/webhook-verifier';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PG_URL = process.env.XSVC_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BIN = join(dirname(createRequire(import.meta.url).resolve('@xsvc/server/package.json')), 'dist/bin.js');
const KEY = `svc_${randomBytes(32).toString('hex')}`;
const DB = `xsvc_docs_${randomBytes(5).toString('hex')}`;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createHttpServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = 45_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('several instances on one Postgres behind a load balancer (guides/server.md)', () => {
  const instances: ChildProcess[] = [];
  const servers: Server[] = [];
  let balancer = '';
  const ports: number[] = [];
  const deliveries: { id: string; eventType: string }[] = [];
  let receiverUrl = '';
  let secret = '';

  const api = async (method: string, path: string, body?: unknown, base = balancer) => {
    const r = await fetch(`${base}${path}`, {
      method,
      headers: { 'x-api-key': KEY, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await r.text();
    return { status: r.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };

  function start(port: number): ChildProcess {
    const child = spawn(process.execPath, [BIN], {
      env: {
        ...process.env,
        DATABASE_URL: `${PG_URL.replace(/\/[^/]*$/, '')}/${DB}`,
        PORT: String(port),
        HOST: '127.0.0.1',
        XSVC_SEED_SIZE: 'tiny',
        XSVC_SECRET_KEY: 'the-same-secret-on-every-instance-0123456789',
        XSVC_BOOTSTRAP_API_KEY: KEY,
        XSVC_ALLOW_LOOPBACK_WEBHOOKS: '1',
        XSVC_KEY_FILE: join(process.env.TMPDIR ?? '/tmp', `${DB}-${port}.key`),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    instances.push(child);
    return child;
  }

  const ready = (port: number) =>
    until(`instance on ${port}`, async () => {
      const r = await fetch(`http://127.0.0.1:${port}/api/v1/account`, { headers: { 'x-api-key': KEY } });
      return r.status === 200 ? true : undefined;
    });

  beforeAll(async () => {
    await admin((c) => c.query(`CREATE DATABASE ${DB}`));
    // The receiver: verifies every delivery and records it.
    const receiver = createHttpServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        try {
          const event = await verifyWebhook({ payload: Buffer.concat(chunks), headers: req.headers, secret });
          const id = 'deliveryId' in event ? String(event.deliveryId) : '';
          deliveries.push({ id, eventType: event.eventType });
          res.writeHead(200).end();
        } catch {
          res.writeHead(400).end();
        }
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    servers.push(receiver);
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

    // The recipe: the first instance migrates and seeds, then the others join the same database.
    ports.push(await freePort(), await freePort());
    start(ports[0]!);
    await ready(ports[0]!);
    start(ports[1]!);
    await ready(ports[1]!);

    // A round-robin balancer in front of both.
    let next = 0;
    const lb = createHttpServer((req, res) => {
      const port = ports[next++ % ports.length]!;
      const upstream = httpRequest(
        { host: '127.0.0.1', port, path: req.url, method: req.method, headers: req.headers },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      upstream.on('error', () => res.writeHead(502).end());
      req.pipe(upstream);
    });
    await new Promise<void>((r) => lb.listen(0, '127.0.0.1', r));
    servers.push(lb);
    balancer = `http://127.0.0.1:${(lb.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    await Promise.all(
      instances.map(
        (c) =>
          new Promise<void>((r) => {
            if (c.exitCode !== null) return r();
            c.once('exit', () => r());
            c.kill('SIGTERM');
          }),
      ),
    );
    for (const s of servers) s.close();
    await admin((c) => c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`)).catch(() => {});
  }, 30_000);

  it('delivers a monitored tweet exactly once, signed, through either instance', async () => {
    const webhook = await api('POST', '/api/v1/webhooks', { url: receiverUrl, eventTypes: ['tweet.new'] });
    expect(webhook.status).toBe(201);
    secret = String(webhook.body.secret);
    const monitor = await api('POST', '/api/v1/monitors', { username: 'jack', eventTypes: ['tweet.new'] });
    expect(monitor.status).toBe(201);
    // Both instances see the monitor and the webhook (one database).
    for (const port of ports) {
      const list = await api('GET', '/api/v1/monitors', undefined, `http://127.0.0.1:${port}`);
      expect((list.body.monitors as unknown[]).length).toBe(1);
    }
    const tweet = await api('POST', '/sim/tweets', { author: 'jack', text: `several instances ${DB}` });
    expect(tweet.status).toBe(201);

    await until('the delivery', async () =>
      deliveries.some((d) => d.eventType === 'tweet.new') ? true : undefined,
    );
    // Give a second instance every chance to send it again: nothing more arrives.
    await new Promise((r) => setTimeout(r, 2_500));
    const tweetDeliveries = deliveries.filter((d) => d.eventType === 'tweet.new');
    expect(tweetDeliveries).toHaveLength(1);
    expect(tweetDeliveries[0]!.id).not.toBe('');
  }, 60_000);

  it('shares keys and sessions: a key made through one instance works on the other', async () => {
    const created = await api('POST', '/api/v1/api-keys', { name: 'recipe' }, `http://127.0.0.1:${ports[0]}`);
    expect(created.status).toBe(201);
    const r = await fetch(`http://127.0.0.1:${ports[1]}/api/v1/account`, {
      headers: { 'x-api-key': String(created.body.fullKey) },
    });
    expect(r.status).toBe(200);
  });
});
