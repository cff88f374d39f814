import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../src/app/server.js';
import { ManualClock } from '../../src/core/clock.js';
import { parseConfig } from '../../src/core/config.js';
import { openDatabase } from '../../src/core/db/database.js';
import type { Platform } from '../../src/core/platform/platform.js';
import { type CheckReport, MonitorEngine } from '../../src/features/monitors/engine/engine.js';
import { monitorEngineOf } from '../../src/features/monitors/feature.js';
import { createSimUser, eventsOf, type MonitorTestServer, postTweet, startMonitorServer } from './helpers.js';

/**
 * Resolves after `n` scheduled checks of an engine built with this hook. Checks fall due on the injected
 * clock: a real-time ticker moves the manual clock on by 5 ms every 5 ms until then.
 */
function checksSeen(n: number, clock?: ManualClock) {
  const reports: CheckReport[] = [];
  let done: () => void = () => undefined;
  const ticker = clock ? setInterval(() => clock.advance(5), 5) : undefined;
  const reached = new Promise<void>((resolve) => {
    done = () => {
      if (ticker) clearInterval(ticker);
      resolve();
    };
  });
  return {
    reports,
    reached,
    onCheck(report: CheckReport) {
      reports.push(report);
      if (reports.length === n) done();
    },
  };
}

describe('the check engine’s life cycle', () => {
  let t: MonitorTestServer;
  beforeAll(async () => {
    t = await startMonitorServer('sqlite');
    await createSimUser(t, { username: 'eng_user' });
    await t.request('POST', '/api/v1/monitors', {
      body: { username: 'eng_user', eventTypes: ['tweet.new'] },
    });
  });
  afterAll(async () => t?.close());

  it('start() checks on a schedule until stop(), which hands the shards back', async () => {
    const seen = checksSeen(3, t.clock);
    const engine = new MonitorEngine(
      t.server.services,
      { error: () => undefined },
      { timing: { intervalMs: 5 }, onCheck: seen.onCheck },
    );
    engine.start();
    expect(engine.running).toBe(true);
    await seen.reached;
    await engine.stop();
    expect(engine.running).toBe(false);
    expect(seen.reports.every((r) => r.errors.length === 0 && r.shards === 64)).toBe(true);
    expect(seen.reports[0]?.accounts.monitors).toBe(1);
    const held = await t.server.services.database.db
      .selectFrom('jobs')
      .select('key')
      .where('kind', '=', 'monitor.shard')
      .where('lease_owner', 'is not', null)
      .execute();
    expect(held).toEqual([]);
  });

  it('logs a failing check and goes on; checkOnce() rejects with the failure', async () => {
    let failures = 2;
    const platform: Platform = Object.create(t.server.services.platform);
    platform.profileStamps = async (ids) => {
      if (failures-- > 0) throw new Error('platform hiccup');
      return t.server.services.platform.profileStamps(ids);
    };
    const logged: string[] = [];
    const seen = checksSeen(2, t.clock);
    const engine = new MonitorEngine(
      { ...t.server.services, platform },
      { error: (_details, message) => logged.push(message) },
      { timing: { intervalMs: 5 }, onCheck: seen.onCheck },
    );
    await expect(engine.checkOnce()).rejects.toThrow('platform hiccup');
    const tweet = await postTweet(t, { author: 'eng_user', text: 'still delivered' });
    engine.start();
    await seen.reached;
    await engine.stop();
    expect(logged).toContain('monitor check failed');
    expect(seen.reports[0]?.errors).toHaveLength(1);
    expect(seen.reports[1]?.errors).toHaveLength(0);
    const [monitor] = (await t.request('GET', '/api/v1/monitors')).body.monitors;
    expect((await eventsOf(t, monitor.id)).map((e) => e.data.id)).toContain(tweet.id);
  });

  it('starts with a server on the system clock and stops when it closes; not with an injected clock', async () => {
    const cfg = parseConfig({ logLevel: 'silent', seedSize: 'tiny', keyFile: '' });
    const live = await createServer(cfg, { database: await openDatabase(':memory:') });
    await live.app.ready();
    const engine = monitorEngineOf(live.app);
    expect(engine?.running).toBe(true);
    await live.close();
    expect(engine?.running).toBe(false);
    await live.services.database.close();

    const manual = await createServer(cfg, {
      database: await openDatabase(':memory:'),
      clock: new ManualClock(),
    });
    await manual.app.ready();
    expect(monitorEngineOf(manual.app)?.running).toBe(false);
    await manual.close();
    await manual.services.database.close();
  });
});
