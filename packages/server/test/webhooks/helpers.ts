import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMemoryNonceStore, verifyWebhook } from '@xsvc/webhook-verifier';
import { buildServer } from '../../src/app/app.js';
import { ManualClock } from '../../src/core/clock.js';
import { type ConfigInput, parseConfig } from '../../src/core/config.js';
import type { Db } from '../../src/core/db/database.js';
import type { Resolver } from '../../src/core/ssrf/target.js';
import type { DeliveryEngine } from '../../src/features/webhooks/engine.js';
import { webhooksFeature } from '../../src/features/webhooks/feature.js';
import type { WebhookOptions } from '../../src/features/webhooks/options.js';
import { deliveryEngineFor } from '../../src/features/webhooks/runtime.js';
import { SimulatedPlatform } from '../../src/platform/simulated/index.js';
import { asTestServer, type Engine, type TestServer, testDatabase } from '../helpers/server.js';

/** Test DNS: a public name for the guard's happy path; everything else does not resolve. */
export const testResolver: Resolver = async (host) => {
  if (host === 'hooks.example.com') return [{ address: '93.184.216.34', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

/** A test server with the webhooks feature, its engine stopped (tests drive it with `runDue`). */
export interface WebhookTestServer extends TestServer {
  engine: DeliveryEngine;
  accountId: string;
}

/**
 * A server with the webhooks operations and engine (and no other feature), loopback webhooks allowed, a
 * manual clock, no jitter and the engine not started.
 */
export async function startWebhookServer(
  engine: Engine,
  options: Partial<WebhookOptions> = {},
  config: Partial<ConfigInput> = {},
  database?: { database: Db; drop: () => Promise<void> },
): Promise<WebhookTestServer> {
  const clock = new ManualClock();
  const { database: db, drop } = database ?? (await testDatabase(engine));
  const cfg = parseConfig({
    logLevel: 'silent',
    seedSize: 'tiny',
    keyFile: '',
    allowLoopbackWebhooks: true,
    ...config,
  });
  const server = await buildServer(cfg, {
    database: db,
    clock,
    validateResponses: true,
    // The webhooks feature never reads the platform: skip seeding a network it would not use.
    platform: (services) => new SimulatedPlatform(services.database.db, services.clock),
    features: [
      webhooksFeature({
        autoStart: false,
        random: () => 0,
        resolver: testResolver,
        stopGraceMs: 500,
        ...options,
      }),
    ],
  });
  const engineOf = deliveryEngineFor(db);
  if (!engineOf) throw new Error('webhooks feature not mounted');
  return { ...(await asTestServer(server, cfg, clock, drop)), engine: engineOf };
}

/** One request a receiver got, with what the verifier made of it. */
export interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The verified, parsed payload; undefined when verification failed. */
  readonly event: Record<string, unknown> | undefined;
  /** Why verification failed. */
  readonly verifyError: string | undefined;
}

/** What a receiver answers. */
export interface ReceiverAnswer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

/** A webhook receiver on 127.0.0.1 that verifies every request with @xsvc/webhook-verifier. */
export interface Receiver {
  readonly url: string;
  readonly port: number;
  readonly received: Received[];
  /** The endpoint secret (set it after creating the webhook); unverified requests are answered 401. */
  secret: string;
  /** What to answer to a verified request (default 200). */
  respond: (r: Received) => ReceiverAnswer | Promise<ReceiverAnswer>;
  /** Resolves once `n` requests have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a receiver; `now` is the clock its verifier checks timestamps against. */
export async function startReceiver(now: () => number, path = '/hooks/xsvc'): Promise<Receiver> {
  const nonces = createMemoryNonceStore();
  const waiters: { n: number; resolve: () => void }[] = [];
  const receiver = {
    received: [] as Received[],
    secret: '',
    respond: (_r: Received): ReceiverAnswer | Promise<ReceiverAnswer> => ({ status: 200 }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks);
      let event: Record<string, unknown> | undefined;
      let verifyError: string | undefined;
      try {
        event = (await verifyWebhook({
          payload: raw,
          headers: req.headers,
          secret: receiver.secret || 'unset',
          now,
          nonceStore: nonces,
        })) as unknown as Record<string, unknown>;
      } catch (err) {
        verifyError = (err as Error).message;
      }
      const r: Received = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: raw.toString('utf8'),
        event,
        verifyError,
      };
      receiver.received.push(r);
      for (const w of waiters.filter((w) => receiver.received.length >= w.n)) w.resolve();
      const answer = event ? await receiver.respond(r) : { status: 401, body: verifyError ?? '' };
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    waitFor(n: number, timeoutMs = 15_000) {
      if (receiver.received.length >= n) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`receiver got ${receiver.received.length} of ${n} requests`)),
          timeoutMs,
        );
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** A port on 127.0.0.1 where nothing listens (a receiver that is down). */
export async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

let seq = 0;

/** Extra fields of a test event. */
export interface EventExtra {
  username?: string;
  data?: Record<string, unknown>;
}

/** Stores an event and its outbox row in one transaction, as the monitors feature does. Returns its id. */
export async function insertEvent(
  db: Db,
  accountId: string,
  eventType: string,
  at: number,
  extra: EventExtra = {},
): Promise<string> {
  const [id] = await insertEvents(db, accountId, [eventType], at, extra);
  return id!;
}

/** Stores several events with their outbox rows in one transaction (a burst). Returns their ids. */
export async function insertEvents(
  db: Db,
  accountId: string,
  eventTypes: readonly string[],
  at: number,
  extra: EventExtra = {},
): Promise<string[]> {
  const rows = eventTypes.map((eventType) => eventRow(accountId, eventType, at, extra));
  await db.db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 200) {
      const chunk = rows.slice(i, i + 200);
      await trx.insertInto('events').values(chunk).execute();
      await trx
        .insertInto('event_outbox')
        .values(chunk.map((r) => ({ event_id: r.id, account_id: accountId, created_at: at })))
        .execute();
    }
  });
  return rows.map((r) => r.id);
}

/** An `events` row whose payload is what a monitor stores (spec 6.3 without `deliveryId`). */
function eventRow(accountId: string, eventType: string, at: number, extra: EventExtra) {
  const id = `${at}${String(seq++).padStart(6, '0')}`;
  const username = extra.username ?? 'alice';
  const payload = {
    eventType,
    schemaVersion: 1,
    streamEventId: id,
    occurredAt: new Date(at).toISOString(),
    username,
    data: extra.data ?? {
      id: `19${id}`,
      text: 'hello 👋 world',
      author: { id: '42', userName: username, name: 'Alice' },
      isRetweet: false,
      isReply: false,
      isQuote: false,
      createdAt: new Date(at).toISOString(),
    },
  };
  return {
    id,
    account_id: accountId,
    monitor_id: 'mon_1',
    keyword_monitor_id: null,
    event_type: eventType,
    username,
    query: null,
    occurred_at: at,
    created_at: at,
    payload: JSON.stringify(payload),
    dedupe_key: null,
  };
}
