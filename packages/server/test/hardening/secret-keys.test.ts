import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { XsvcServer } from '../../src/app/app.js';
import { rotateSecretKey } from '../../src/app/rotate-secret-key.js';
import { createServer } from '../../src/app/server.js';
import { ManualClock } from '../../src/core/clock.js';
import { type ConfigInput, parseConfig } from '../../src/core/config.js';
import { SecretBox } from '../../src/core/crypto/secret-box.js';
import { type Db, openDatabase } from '../../src/core/db/database.js';
import { asTestServer, type Engine, PG_URL, type TestServer } from '../helpers/server.js';
import { type Receiver, startReceiver } from '../webhooks/helpers.js';
import { connectThroughApi, newSimUser } from '../x-accounts/helpers.js';

/**
 * Issue #25, item 5: every secret the server must read back is sealed at rest under a key derived from
 * `XSVC_SECRET_KEY` (or the 0600 key file it creates), never under anything kept in the database; values
 * from older servers are sealed at start; `XSVC_SECRET_KEY_PREVIOUS` rotates. Real servers (every
 * feature, a seeded tiny network) on a SQLite file and on Postgres, restarted on the same data; deliveries
 * checked by a receiver with `@xsvc/webhook-verifier`.
 */

/** Where one engine's data lives across restarts: a SQLite file, or a Postgres schema. */
interface Store {
  engine: Engine;
  dir: string;
  config: Partial<ConfigInput>;
  /** Opens the database the servers share (Postgres: one handle per server; SQLite: the server's own). */
  open(): Promise<Db | undefined>;
  /** Every text the database holds (SQLite: the file and its WAL as bytes; Postgres: all text columns). */
  contains(needle: string): Promise<boolean>;
  drop(): Promise<void>;
}

async function sqliteStore(): Promise<Store> {
  const dir = mkdtempSync(join(tmpdir(), 'xsvc-keys-'));
  const file = join(dir, 'xsvc.db');
  return {
    engine: 'sqlite',
    dir,
    config: { databaseUrl: file },
    open: async () => undefined,
    contains: async (needle) =>
      [file, `${file}-wal`].some((f) => existsSync(f) && readFileSync(f).includes(Buffer.from(needle))),
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function postgresStore(): Promise<Store> {
  const dir = mkdtempSync(join(tmpdir(), 'xsvc-keys-'));
  const schema = `keys_${randomBytes(6).toString('hex')}`;
  const admin = await openDatabase(PG_URL, { poolSize: 1 });
  return {
    engine: 'postgres',
    dir,
    config: { databaseUrl: PG_URL, secretKeyFile: join(dir, 'secret-key') },
    open: () => openDatabase(PG_URL, { pgSchema: schema, poolSize: 4 }),
    async contains(needle) {
      const cols = await sql<{ table_name: string; column_name: string }>`
        select table_name, column_name from information_schema.columns
        where table_schema = ${schema} and data_type in ('text', 'character varying', 'json', 'jsonb')`.execute(
        admin.db,
      );
      for (const c of cols.rows) {
        const hit = await sql<{ n: string }>`
          select count(*) as n from ${sql.id(schema, c.table_name)}
          where ${sql.ref(c.column_name)}::text like ${`%${needle}%`}`.execute(admin.db);
        if (Number(hit.rows[0]?.n) > 0) return true;
      }
      return false;
    },
    async drop() {
      await sql.raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).execute(admin.db);
      await admin.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A running server on a store, with the owner's key (created at its first start). */
interface Running extends TestServer {
  accountId: string;
}

describe.each(['sqlite', 'postgres'] as const)('secrets at rest (%s)', (engine) => {
  let store: Store;
  let receiver: Receiver;
  const clock = new ManualClock(Date.now());
  const open: XsvcServer[] = [];

  beforeAll(async () => {
    store = engine === 'sqlite' ? await sqliteStore() : await postgresStore();
    receiver = await startReceiver(() => clock.now());
  });
  afterAll(async () => {
    for (const s of open) await s.close().catch(() => undefined);
    await receiver?.close();
    await store?.drop();
  });

  /** Starts a server on the store (its first start seeds the network and makes the owner). */
  async function start(config: Partial<ConfigInput> = {}): Promise<Running & { server: XsvcServer }> {
    const cfg = parseConfig({
      logLevel: 'silent',
      seedSize: 'tiny',
      keyFile: '',
      allowLoopbackWebhooks: true,
      ...store.config,
      ...config,
    });
    const database = await store.open();
    const server = await createServer(cfg, {
      ...(database && { database }),
      clock,
      monitors: { autoStart: false },
      extractions: { autoStart: false },
      webhooks: { autoStart: false },
    }).catch(async (err: unknown) => {
      await database?.close();
      throw err;
    });
    open.push(server);
    const t = await asTestServer(server, cfg, clock, async () => database?.close());
    return t;
  }

  async function stop(t: Running): Promise<void> {
    await t.close();
    open.splice(open.indexOf(t.server), 1);
  }

  /** Sends the signed test delivery of a webhook: the receiver verifies it with `secret`. */
  async function testDelivery(t: Running, id: string, secret: string): Promise<void> {
    receiver.secret = secret;
    const before = receiver.received.length;
    const r = await t.request('POST', `/api/v1/webhooks/${id}/test`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.success, JSON.stringify(r.body)).toBe(true);
    const got = receiver.received[before];
    expect(got?.verifyError).toBeUndefined();
    expect(got?.event).toMatchObject({ eventType: 'webhook.test' });
  }

  let rotatedTo = '';
  let movedKey = '';
  const readSecret = async () => rotatedTo;

  const secrets: { webhook: string; session: string; guestKey: string; webhookId: string } = {
    webhook: '',
    session: '',
    guestKey: '',
    webhookId: '',
  };

  it('creates a 0600 key file and keeps every secret it must read back sealed', async () => {
    const t = await start();
    expect(t.server.secretKeySource.kind).toBe('created');
    const keyFile = join(store.dir, 'secret-key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const key = readFileSync(keyFile, 'utf8').trim();
    expect(key).toMatch(/^[0-9a-f]{64}$/);

    const hook = await t.request('POST', '/api/v1/webhooks', {
      body: { url: receiver.url, eventTypes: ['tweet.new'] },
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    secrets.webhook = hook.body.secret;
    secrets.webhookId = hook.body.id;
    await testDelivery(t, secrets.webhookId, secrets.webhook);

    const user = await newSimUser(t, 'sealed');
    const connected = await connectThroughApi(t, user.username);
    const row = await t.server.services.database.db
      .selectFrom('x_accounts')
      .select('session_enc')
      .where('id', '=', connected.id)
      .executeTakeFirstOrThrow();
    secrets.session = t.server.services.secrets.box('x-account-sessions').open(row.session_enc ?? '');
    expect(secrets.session.length).toBeGreaterThan(10);

    const wallet = await t.request('POST', '/api/v1/guest-wallets', {
      key: null,
      body: { amount_minor: 1000, currency: 'USD' },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(wallet.status, JSON.stringify(wallet.body)).toBe(201);
    secrets.guestKey = String(wallet.body.api_key).slice(4);

    await stop(t);
    const needles = {
      'webhook secret': secrets.webhook,
      'x session': secrets.session,
      'guest key': secrets.guestKey,
      'secret key': key,
    };
    for (const [what, needle] of Object.entries(needles))
      expect(await store.contains(needle), `${what} found in the database`).toBe(false);
    // The same check finds what is there: the webhook's id is stored in clear.
    expect(await store.contains(secrets.webhookId)).toBe(true);
  }, 60_000);

  it('reads its secrets back after a restart, with the key file', async () => {
    const t = await start();
    expect(t.server.secretKeySource.kind).toBe('file');
    await testDelivery(t, secrets.webhookId, secrets.webhook);
    await stop(t);
  }, 60_000);

  it('rotates to XSVC_SECRET_KEY with the key file as XSVC_SECRET_KEY_PREVIOUS, and refuses the old key after', async () => {
    const old = readFileSync(join(store.dir, 'secret-key'), 'utf8').trim();
    const next = randomBytes(32).toString('hex');
    rotatedTo = next;
    const stored = async (t: Running) =>
      (
        await t.server.services.database.db
          .selectFrom('webhooks')
          .select('secret')
          .where('id', '=', secrets.webhookId)
          .executeTakeFirstOrThrow()
      ).secret;
    const during = await start({ secretKey: next, secretKeyPrevious: old });
    const resealed = await stored(during);
    // Sealed again under the new key alone: the old key no longer opens it.
    expect(SecretBox.fromSecret(next, 'webhook-secrets').open(resealed)).toBe(secrets.webhook);
    expect(() => SecretBox.fromSecret(old, 'webhook-secrets').open(resealed)).toThrow();
    await stop(during);

    const after = await start({ secretKey: next });
    expect(after.server.secretKeySource.kind).toBe('environment');
    await testDelivery(after, secrets.webhookId, secrets.webhook);
    const session = await after.server.services.database.db
      .selectFrom('x_accounts')
      .select('session_enc')
      .executeTakeFirstOrThrow();
    expect(after.server.services.secrets.box('x-account-sessions').open(session.session_enc ?? '')).toBe(
      secrets.session,
    );
    await stop(after);
    // An instance still on the old key would seal what the others cannot open: it does not start.
    await expect(start({ secretKey: old })).rejects.toThrow(/does not match this database/);
    await expect(start({ secretKeyFile: join(store.dir, 'other-key') })).rejects.toThrow(
      /does not match this database/,
    );
  }, 90_000);

  it('seals what an older server stored in clear, and moves the secret it kept in the database to the key file', async () => {
    const legacy = randomBytes(32).toString('hex');
    const next = (await readSecret()) ?? '';
    // Everything under `legacy` first (a rotation from the key of the test before), as an older server
    // that derived its session key from the secret it kept in the database would have it.
    const current = await start({ secretKey: legacy, secretKeyPrevious: next });
    const db = current.server.services.database.db;
    // The state an older server left: the signing secret in clear, the session secret in the database,
    // no key file, no check value.
    await db
      .updateTable('webhooks')
      .set({ secret: secrets.webhook })
      .where('id', '=', secrets.webhookId)
      .execute();
    await db.deleteFrom('server_secrets').execute();
    await db
      .insertInto('server_secrets')
      .values({ name: 'x-account-sessions', value: legacy, created_at: 0 })
      .execute();
    await db
      .insertInto('server_secrets')
      .values({ name: 'machine-payments', value: 'ab'.repeat(32), created_at: 0 })
      .execute();
    await stop(current);
    rmSync(join(store.dir, 'secret-key'));

    const t = await start();
    expect(t.server.secretKeySource.kind).toBe('moved');
    movedKey = legacy;
    expect(readFileSync(join(store.dir, 'secret-key'), 'utf8').trim()).toBe(legacy);
    expect(statSync(join(store.dir, 'secret-key')).mode & 0o777).toBe(0o600);
    const names = await t.server.services.database.db.selectFrom('server_secrets').select('name').execute();
    expect(names.map((n) => n.name)).toEqual(['secret-key-check']);
    const row = await t.server.services.database.db
      .selectFrom('webhooks')
      .select('secret')
      .where('id', '=', secrets.webhookId)
      .executeTakeFirstOrThrow();
    expect(row.secret.startsWith('v1.')).toBe(true);
    await testDelivery(t, secrets.webhookId, secrets.webhook);
    const session = await t.server.services.database.db
      .selectFrom('x_accounts')
      .select('session_enc')
      .executeTakeFirstOrThrow();
    expect(t.server.services.secrets.box('x-account-sessions').open(session.session_enc ?? '')).toBe(
      secrets.session,
    );
    await stop(t);
  }, 90_000);

  it('rotates with `xsvc-server rotate-secret-key` (no server running), then serves under the new key', async () => {
    const next = randomBytes(32).toString('hex');
    const config = parseConfig({ ...store.config, secretKey: next, secretKeyPrevious: movedKey });
    const database = await store.open();
    const report =
      engine === 'sqlite' ? await rotateSecretKey(config) : await rotateSecretKey(config, database);
    await database?.close();
    // The webhook secret and the session at least.
    expect(report.resealed).toBeGreaterThanOrEqual(2);
    const t = await start({ secretKey: next });
    await testDelivery(t, secrets.webhookId, secrets.webhook);
    await stop(t);
    await expect(start({ secretKey: movedKey })).rejects.toThrow(/does not match this database/);
  }, 90_000);
});
