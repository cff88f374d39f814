import { describe, expect, it } from 'vitest';
import { num } from '../../src/core/db/database.js';
import { jobId } from '../../src/core/jobs/index.js';
import { DELIVERY_JOB_KIND } from '../../src/features/webhooks/deliveries-repository.js';
import { wakeWebhookDeliveries } from '../../src/features/webhooks/runtime.js';
import { testDatabase } from '../helpers/server.js';
import { insertEvent, startReceiver, startWebhookServer } from './helpers.js';

describe('delivery engine lifecycle', () => {
  it('starts when the server listens and delivers a stored event without being driven', async () => {
    const t = await startWebhookServer('sqlite', { autoStart: true, pollIntervalMs: 50 });
    const receiver = await startReceiver(() => t.clock.now());
    try {
      await t.server.app.listen({ port: 0, host: '127.0.0.1' });
      const r = await t.request('POST', '/api/v1/webhooks', {
        body: { url: receiver.url, eventTypes: ['tweet.new'] },
      });
      receiver.secret = r.body.secret;
      const id = await insertEvent(t.server.services.database, t.accountId, 'tweet.new', t.clock.now());
      wakeWebhookDeliveries(t.server.services.database);
      await receiver.waitFor(1);
      expect(receiver.received[0]!.event).toMatchObject({ eventType: 'tweet.new', streamEventId: id });
    } finally {
      await receiver.close();
      await t.close();
    }
  });

  it('on close, cuts off attempts still hanging after the grace period and releases their leases', async () => {
    const storage = await testDatabase('sqlite');
    const t = await startWebhookServer('sqlite', { autoStart: true, stopGraceMs: 100 }, {}, storage);
    const receiver = await startReceiver(() => t.clock.now());
    receiver.respond = () => new Promise(() => {});
    try {
      await t.server.app.listen({ port: 0, host: '127.0.0.1' });
      const r = await t.request('POST', '/api/v1/webhooks', {
        body: { url: receiver.url, eventTypes: ['tweet.new'] },
      });
      receiver.secret = r.body.secret;
      await insertEvent(storage.database, t.accountId, 'tweet.new', t.clock.now());
      await receiver.waitFor(1);
      await t.server.close();
      const [d] = await storage.database.db.selectFrom('webhook_deliveries').selectAll().execute();
      expect(d).toMatchObject({ status: 'pending' });
      const job = await storage.database.db
        .selectFrom('jobs')
        .select(['lease_owner', 'lease_until'])
        .where('id', '=', jobId(DELIVERY_JOB_KIND, d!.id))
        .executeTakeFirstOrThrow();
      expect(job).toEqual({ lease_owner: null, lease_until: null });
      expect(num(d!.attempts)).toBe(0);
      expect(num(d!.next_attempt_at)).toBe(t.clock.now());
    } finally {
      await receiver.close();
      await storage.drop();
    }
  });

  it('logs and survives a failing cycle instead of crashing', async () => {
    const storage = await testDatabase('sqlite');
    const t = await startWebhookServer('sqlite', { autoStart: true, pollIntervalMs: 10 }, {}, storage);
    const errors: string[] = [];
    const log = t.server.app.log;
    const original = log.error.bind(log);
    log.error = ((obj: unknown, msg?: string) => {
      errors.push(msg ?? String(obj));
      return original(obj as object, msg);
    }) as typeof log.error;
    try {
      await t.server.app.listen({ port: 0, host: '127.0.0.1' });
      await storage.database.db.schema.alterTable('event_outbox').renameTo('event_outbox_gone').execute();
      for (let i = 0; i < 200 && errors.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(errors[0]).toMatch(/webhook\.delivery: cycle failed/);
      await storage.database.db.schema.alterTable('event_outbox_gone').renameTo('event_outbox').execute();
      const receiver = await startReceiver(() => t.clock.now());
      try {
        const r = await t.request('POST', '/api/v1/webhooks', {
          body: { url: receiver.url, eventTypes: ['tweet.new'] },
        });
        receiver.secret = r.body.secret;
        await insertEvent(storage.database, t.accountId, 'tweet.new', t.clock.now());
        await receiver.waitFor(1);
      } finally {
        await receiver.close();
      }
    } finally {
      await t.server.close();
      await storage.drop();
    }
  });
});
