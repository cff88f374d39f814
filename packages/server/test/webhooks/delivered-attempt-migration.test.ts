/**
 * Migration 0025: the attempt that delivers a delivery is recorded on the delivery row only; a delivery
 * delivered before the migration keeps its history row (listed once); `down` writes the delivering
 * attempts' rows back before dropping the columns, and `up` again keeps every row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { num } from '../../src/core/db/database.js';
import * as m0025 from '../../src/core/db/migrations/0025-delivered-attempt-on-delivery.js';
import { deliveryAttemptsPerHour } from '../../src/features/dashboard/activity.js';
import { listAttemptRows } from '../../src/features/webhooks/deliveries-repository.js';
import type { DeliveryEngine } from '../../src/features/webhooks/engine.js';
import { deliveryEngineFor } from '../../src/features/webhooks/runtime.js';
import {
  ENGINES,
  ownerAccountId,
  startTestServer,
  type TestServer,
  tableColumns,
} from '../helpers/server.js';
import { insertEvent, type Receiver, startReceiver } from './helpers.js';

describe.each(ENGINES)('the delivering attempt on its delivery (%s)', (engine) => {
  let t: TestServer;
  let delivery: DeliveryEngine;
  let receiver: Receiver;
  let ownerId = '';
  let hookId = '';

  beforeAll(async () => {
    t = await startTestServer(engine, { allowLoopbackWebhooks: true });
    const found = deliveryEngineFor(t.server.services.database);
    if (!found) throw new Error('webhooks feature not mounted');
    delivery = found;
    receiver = await startReceiver(() => t.clock.now());
    ownerId = await ownerAccountId(t.server);
    const r = await t.request('POST', '/api/v1/webhooks', {
      body: { url: receiver.url, eventTypes: ['tweet.new'] },
    });
    expect(r.status).toBe(201);
    receiver.secret = r.body.secret;
    hookId = r.body.id;
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  const db = () => t.server.services.database.db;
  const deliveryIds = async () =>
    (await db().selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', hookId).execute()).map(
      (r) => r.id,
    );
  const listed = async () =>
    (await listAttemptRows(db(), ownerId, hookId, await deliveryIds())).map((a) => [
      a.id,
      num(a.attempt),
      a.outcome,
    ]);

  it('writes no history row for a delivering attempt, keeps an older one, and lists each once', async () => {
    receiver.respond = () => ({ status: 200 });
    const startedAt = t.clock.now();
    await insertEvent(t.server.services.database, ownerId, 'tweet.new', startedAt);
    expect((await delivery.runDue()).attempts).toBe(1);
    const [fresh] = await deliveryIds();
    const row = await db()
      .selectFrom('webhook_deliveries')
      .select(['status', 'attempts', 'last_started_at', 'last_duration_ms', 'last_status_code'])
      .where('id', '=', fresh as string)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('delivered');
    expect(num(row.last_started_at)).toBe(startedAt);
    expect(num(row.last_duration_ms)).toBeGreaterThanOrEqual(0);
    expect(num(row.last_status_code)).toBe(200);
    expect(await db().selectFrom('webhook_delivery_attempts').selectAll().execute()).toEqual([]);
    expect(await listed()).toEqual([[`${fresh}_1`, 1, 'delivered']]);

    // As a delivery delivered before the migration: its history row, nothing on the delivery.
    await insertEvent(t.server.services.database, ownerId, 'tweet.new', startedAt);
    expect((await delivery.runDue()).attempts).toBe(1);
    const old = (await deliveryIds()).find((id) => id !== fresh) as string;
    await db()
      .updateTable('webhook_deliveries')
      .set({ last_started_at: null, last_duration_ms: null })
      .where('id', '=', old)
      .execute();
    await db()
      .insertInto('webhook_delivery_attempts')
      .values({
        id: `${old}_1`,
        delivery_id: old,
        webhook_id: hookId,
        account_id: ownerId,
        attempt: 1,
        started_at: startedAt,
        duration_ms: 3,
        status_code: 200,
        error: null,
        outcome: 'delivered',
      })
      .execute();
    const both = [
      [`${fresh}_1`, 1, 'delivered'],
      [`${old}_1`, 1, 'delivered'],
    ].sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(await listed()).toEqual(both);
    // The dashboard's chart counts each delivering attempt once, wherever it is recorded.
    const hours = await deliveryAttemptsPerHour(db(), ownerId, t.clock.now());
    expect(hours.reduce((n, h) => n + h.value.delivered, 0)).toBe(2);
  });

  it('goes down writing the delivering attempts back as rows, and up again keeping them', async () => {
    const before = await listed();
    await m0025.down(db());
    const cols = await tableColumns(t.server.services.database, 'webhook_deliveries');
    expect(cols).not.toContain('last_started_at');
    expect(cols).not.toContain('last_duration_ms');
    const rows = await db()
      .selectFrom('webhook_delivery_attempts')
      .select(['id', 'attempt', 'outcome'])
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.id, num(r.attempt), r.outcome])).toEqual(before);
    await m0025.up(db());
    expect(await tableColumns(t.server.services.database, 'webhook_deliveries')).toEqual(
      expect.arrayContaining(['last_started_at', 'last_duration_ms']),
    );
    expect(await listed()).toEqual(before);
  });
});
