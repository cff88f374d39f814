import { describe, expect, it } from 'vitest';
import { consume, MemoryWindows, peek, reset, sweep } from '../../src/core/limits/fixed-window.js';
import { ENGINES, useMigratedDatabase } from '../helpers/server.js';

const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);

/** The one fixed-window limiter: window arithmetic, conditional increments, concurrency, on both engines. */
describe.each(ENGINES)('fixed windows (%s)', (engine) => {
  const current = useMigratedDatabase(engine);

  it('counts up to the limit in a clock-aligned window, refuses past it without counting, then resets', async () => {
    const database = current();
    const cfg = { key: 'unit:aligned', limit: 3, windowMs: 60_000 };
    const now = T0 + 15_000;
    const states = [];
    for (let i = 0; i < 5; i++) states.push(await consume(database.db, { ...cfg, now }));
    expect(states.map((s) => s.allowed)).toEqual([true, true, true, false, false]);
    expect(states.map((s) => s.remaining)).toEqual([2, 1, 0, 0, 0]);
    expect(states[4]).toMatchObject({ count: 3, resetAt: T0 + 60_000, retryAfter: 45 });
    expect(await peek(database.db, { ...cfg, now })).toMatchObject({ allowed: false, count: 3 });
    const next = await consume(database.db, { ...cfg, now: T0 + 60_000 });
    expect(next).toMatchObject({ allowed: true, count: 1, resetAt: T0 + 120_000 });
  });

  it('takes costs: a request that does not fit counts nothing', async () => {
    const database = current();
    const cfg = { key: 'unit:cost', limit: 20, windowMs: 3_600_000, now: T0 };
    expect(await consume(database.db, { ...cfg, cost: 15 })).toMatchObject({ allowed: true, count: 15 });
    expect(await consume(database.db, { ...cfg, cost: 6 })).toMatchObject({ allowed: false, count: 15 });
    expect(await consume(database.db, { ...cfg, cost: 5 })).toMatchObject({ allowed: true, remaining: 0 });
    expect(await consume(database.db, { ...cfg, key: 'unit:cost-big', cost: 21 })).toMatchObject({
      allowed: false,
      count: 0,
    });
  });

  it('anchors a window at its first unit when asked, and forgets a key on reset', async () => {
    const database = current();
    const cfg = { key: 'unit:first', limit: 2, windowMs: 15 * 60_000, anchor: 'first' as const };
    const start = T0 + 7 * 60_000 + 123;
    expect(await consume(database.db, { ...cfg, now: start })).toMatchObject({
      resetAt: start + 15 * 60_000,
    });
    expect((await consume(database.db, { ...cfg, now: start + 14 * 60_000 })).allowed).toBe(true);
    expect((await consume(database.db, { ...cfg, now: start + 15 * 60_000 - 1 })).allowed).toBe(false);
    const fresh = await consume(database.db, { ...cfg, now: start + 15 * 60_000 });
    expect(fresh).toMatchObject({ allowed: true, count: 1, resetAt: start + 30 * 60_000 });
    await reset(database.db, cfg.key);
    expect(await peek(database.db, { ...cfg, now: start + 15 * 60_000 })).toMatchObject({
      allowed: true,
      count: 0,
    });
  });

  it('never lets two concurrent consumers exceed the limit', async () => {
    const database = current();
    const cfg = { key: 'unit:race', limit: 25, windowMs: 60_000, now: T0 };
    const results = await Promise.all(Array.from({ length: 60 }, () => consume(database.db, cfg)));
    expect(results.filter((r) => r.allowed)).toHaveLength(25);
    expect(await peek(database.db, cfg)).toMatchObject({ count: 25, allowed: false });
  });

  it('counts a request stamped before the stored window in that window, never reopening the older one', async () => {
    const database = current();
    const cfg = { key: 'unit:stale', limit: 3, windowMs: 1_000 };
    // The window of T0+1 s is full; a request that read the clock in the previous second arrives now.
    for (let i = 0; i < 3; i++) await consume(database.db, { ...cfg, now: T0 + 1_000 + i });
    expect(await consume(database.db, { ...cfg, now: T0 + 999 })).toMatchObject({
      allowed: false,
      count: 3,
      resetAt: T0 + 2_000,
    });
    // The newer window is still the stored one, and still full.
    expect((await consume(database.db, { ...cfg, now: T0 + 1_500 })).allowed).toBe(false);
    // With room left, a stale request counts in the newer window (it is served now).
    const other = { ...cfg, key: 'unit:stale-room' };
    await consume(database.db, { ...other, now: T0 + 1_000 });
    expect(await consume(database.db, { ...other, now: T0 + 998 })).toMatchObject({
      allowed: true,
      count: 2,
      resetAt: T0 + 2_000,
    });
    expect(await consume(database.db, { ...other, now: T0 + 1_001 })).toMatchObject({ count: 3 });
  });

  it('sweeps ended windows by prefix', async () => {
    const database = current();
    await consume(database.db, { key: 'sweep:a', limit: 1, windowMs: 1_000, now: T0 });
    await consume(database.db, { key: 'keep:a', limit: 1, windowMs: 1_000, now: T0 });
    await sweep(database.db, T0 + 10_000, 'sweep:');
    const keys = await database.db.selectFrom('rate_limit_counters').select('bucket').execute();
    expect(keys.map((k) => k.bucket)).toContain('keep:a');
    expect(keys.map((k) => k.bucket)).not.toContain('sweep:a');
  });
});

describe('fixed windows in memory', () => {
  it('follow the same arithmetic as the stored ones', () => {
    const m = new MemoryWindows();
    const cfg = { key: 'k', limit: 2, windowMs: 1_000 };
    expect([1, 2, 3].map(() => m.consume({ ...cfg, now: T0 + 500 }).allowed)).toEqual([true, true, false]);
    expect(m.consume({ ...cfg, now: T0 + 999 })).toMatchObject({
      allowed: false,
      resetAt: T0 + 1_000,
      retryAfter: 1,
    });
    expect(m.consume({ ...cfg, now: T0 + 1_000 })).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('count a stale-stamped request in the newer window', () => {
    const m = new MemoryWindows();
    const cfg = { key: 'k', limit: 2, windowMs: 1_000 };
    m.consume({ ...cfg, now: T0 + 1_000 });
    m.consume({ ...cfg, now: T0 + 1_001 });
    expect(m.consume({ ...cfg, now: T0 + 999 })).toMatchObject({ allowed: false, resetAt: T0 + 2_000 });
    expect(m.consume({ ...cfg, now: T0 + 1_002 }).allowed).toBe(false);
  });
});
