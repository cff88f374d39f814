import { describe, expect, it } from 'vitest';
import {
  attachmentId,
  idsOf,
  randomId,
  TimeIds,
  ticketPublicId,
  timeHexId,
  timeId,
  timeUuid,
  uuid,
} from '../../src/core/ids/index.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const MANY = 20_000;

function allDistinct(ids: string[]): boolean {
  return new Set(ids).size === ids.length;
}

describe('core/ids formats', () => {
  it('random ids: prefix and 32 hex digits, or as the options say', () => {
    expect(randomId('xatt')).toMatch(/^xatt_[0-9a-f]{32}$/);
    expect(randomId()).toMatch(/^[0-9a-f]{32}$/);
    expect(randomId('xch', { bytes: 18, encoding: 'base64url' })).toMatch(/^xch_[A-Za-z0-9_-]{24}$/);
  });

  it('timeHexId: a prefix and 32 hex digits (a randomId’s shape) that sort by time, never repeating', () => {
    const ms = Date.UTC(2026, 10, 27, 12);
    const first = timeHexId('dlv', ms);
    expect(first).toMatch(/^dlv_[0-9a-f]{32}$/);
    expect(first.slice(4, 16)).toBe(ms.toString(16).padStart(12, '0'));
    const burst = Array.from({ length: MANY }, () => timeHexId('dlv', ms));
    expect(allDistinct(burst)).toBe(true);
    expect([...burst].sort()).toEqual(burst);
    expect(timeHexId('gp', ms + 1) > (burst.at(-1) as string).replace('dlv', 'gp')).toBe(true);
  });

  it('uuids, ticket public ids and attachment ids', () => {
    expect(uuid()).toMatch(UUID_V4);
    expect(ticketPublicId()).toMatch(/^TCK-[0-9A-HJKMNP-TV-Z]{8}$/);
    const ms = Date.UTC(2030, 0, 1);
    const att = attachmentId(ms);
    expect(att).toMatch(/^att_\d+$/);
    expect(BigInt(att.slice(4)) >> 32n).toBe(BigInt(ms));
  });

  it('timeId: a big integer with the millisecond in its high bits', () => {
    const ms = Date.UTC(2029, 5, 1);
    const id = timeId(ms);
    expect(id).toMatch(/^\d+$/);
    expect(BigInt(id) >> 32n).toBe(BigInt(ms));
    expect(BigInt(timeId(ms + 1))).toBeGreaterThan(BigInt(id) | 0xffffffffn);
  });

  it('timeUuid: a version 7 UUID carrying its millisecond', () => {
    const ms = Date.UTC(2032, 0, 1);
    const id = timeUuid(ms);
    expect(id).toMatch(UUID_V7);
    expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(ms);
  });

  it('TimeIds: 19-digit snowflakes carrying their millisecond', () => {
    const ids = new TimeIds();
    const ms = Date.UTC(2027, 0, 1);
    const id = ids.next(ms);
    expect(id).toMatch(/^\d{19}$/);
    expect(Number(BigInt(id) >> 22n) + 1_288_834_974_657).toBe(ms);
  });
});

describe('core/ids uniqueness under many calls', () => {
  it('random ids, uuids and ticket ids do not repeat', () => {
    expect(allDistinct(Array.from({ length: MANY }, () => randomId('dlv')))).toBe(true);
    expect(allDistinct(Array.from({ length: MANY }, () => uuid()))).toBe(true);
    expect(allDistinct(Array.from({ length: 2_000 }, () => ticketPublicId()))).toBe(true);
  });

  it('time ids made in one millisecond still differ', () => {
    const ms = Date.UTC(2030, 1, 1);
    expect(allDistinct(Array.from({ length: MANY }, () => timeId(ms)))).toBe(true);
    expect(allDistinct(Array.from({ length: MANY }, () => timeUuid(ms)))).toBe(true);
    const gen = new TimeIds();
    expect(allDistinct(Array.from({ length: MANY }, () => gen.next(ms)))).toBe(true);
  });
});

describe('core/ids time-sortability', () => {
  it('timeUuid and TimeIds strictly increase: within a millisecond, past 4096, and when the clock steps back', () => {
    const ms = Date.UTC(2033, 0, 1);
    const gen = new TimeIds();
    for (const next of [timeUuid, (t: number) => gen.next(t)]) {
      const ids = [
        ...Array.from({ length: 5_000 }, () => next(ms)),
        ...Array.from({ length: 10 }, () => next(ms - 1_000)),
        next(ms + 10_000),
      ];
      for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
    }
  });

  it('timeId sorts by millisecond (numerically), and so do timeUuid and TimeIds as text', () => {
    const times = [Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 2), Date.UTC(2035, 6, 1)];
    const big = times.map((t) => BigInt(timeId(t)));
    expect([...big].sort((a, b) => (a < b ? -1 : 1))).toEqual(big);
    const gen = new TimeIds();
    for (const make of [timeUuid, (t: number) => gen.next(t)]) {
      const ids = times.map((t) => make(t));
      expect([...ids].sort()).toEqual(ids);
    }
  });

  it('idsOf gives one generator per owner', () => {
    const a = {};
    expect(idsOf(a)).toBe(idsOf(a));
    expect(idsOf(a)).not.toBe(idsOf({}));
  });
});
