import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/core/db/database.js';
import { PG_URL } from '../helpers/server.js';
import { insertEvents, startReceiver, startWebhookServer, type WebhookTestServer } from './helpers.js';

const EVENTS = 400;

describe('two instances on one Postgres', () => {
  it('share the outbox and the deliveries and send each delivery exactly once', async () => {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const dbA = await openDatabase(PG_URL, { pgSchema: schema, poolSize: 4 });
    const dbB = await openDatabase(PG_URL, { pgSchema: schema, poolSize: 4 });
    const noop = async () => {};
    const opts = { autoStart: false, pollIntervalMs: 20, batchSize: 64, maxInFlight: 64 };
    let a: WebhookTestServer | undefined;
    let b: WebhookTestServer | undefined;
    const receiver = await startReceiver(() => a?.clock.now() ?? 0);
    try {
      a = await startWebhookServer('postgres', opts, {}, { database: dbA, drop: noop });
      b = await startWebhookServer('postgres', opts, {}, { database: dbB, drop: noop });
      const r = await a.request('POST', '/api/v1/webhooks', {
        body: { url: receiver.url, eventTypes: ['tweet.new', 'tweet.reply'] },
      });
      receiver.secret = r.body.secret;
      await Promise.all([a.engine.start(), b.engine.start()]);
      // Bursts of 50 events, stored alternately through either instance's connection.
      const ids: string[] = [];
      for (let i = 0; i < EVENTS / 50; i++) {
        const types = Array.from({ length: 50 }, (_, j) => (j % 2 ? 'tweet.new' : 'tweet.reply'));
        ids.push(...(await insertEvents(i % 2 ? dbA : dbB, a.accountId, types, a.clock.now())));
      }
      await receiver.waitFor(EVENTS, 30_000);
      await Promise.all([a.engine.stop(), b.engine.stop()]);

      const events = receiver.received.map((x) => x.event as { deliveryId: string; streamEventId: string });
      expect(receiver.received.every((x) => x.verifyError === undefined)).toBe(true);
      expect(receiver.received).toHaveLength(EVENTS);
      expect(new Set(events.map((e) => e.deliveryId)).size).toBe(EVENTS);
      expect(new Set(events.map((e) => e.streamEventId))).toEqual(new Set(ids));
      // Both instances took part, and their counts add up to one attempt per delivery.
      expect(a.engine.stats.attempts).toBeGreaterThan(0);
      expect(b.engine.stats.attempts).toBeGreaterThan(0);
      expect(a.engine.stats.attempts + b.engine.stats.attempts).toBe(EVENTS);
      const rows = await dbA.db.selectFrom('webhook_deliveries').select(['status', 'attempts']).execute();
      expect(rows).toHaveLength(EVENTS);
      expect(rows.every((row) => row.status === 'delivered' && Number(row.attempts) === 1)).toBe(true);
      const outbox = await dbA.db.selectFrom('event_outbox').select('event_id').execute();
      expect(outbox).toHaveLength(0);
    } finally {
      await receiver.close();
      await a?.server.close();
      await b?.server.close();
      await sql.raw(`drop schema if exists ${schema} cascade`).execute(dbA.db);
      await dbA.close();
      await dbB.close();
    }
  });
});
