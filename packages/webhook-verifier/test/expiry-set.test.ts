import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExpirySet } from '../src/expiry-set.js';

/** The obvious, slow implementation the fast one must agree with: a list scanned on every call. */
class Model {
  readonly entries = new Map<string, number>();
  readonly removed: string[] = [];
  constructor(readonly max: number) {}
  sweep(now: number) {
    for (const [k, e] of this.entries) if (e < now) this.remove(k);
  }
  remove(k: string) {
    this.entries.delete(k);
    this.removed.push(k);
  }
  evictSoonest() {
    let best: [string, number] | undefined;
    for (const entry of this.entries) if (best === undefined || entry[1] < best[1]) best = entry;
    if (best) this.remove(best[0]);
  }
  add(k: string, e: number, now: number) {
    this.sweep(now);
    const cur = this.entries.get(k);
    if (cur !== undefined && now <= cur) return false;
    if (cur === undefined) while (this.entries.size >= this.max) this.evictSoonest();
    this.entries.set(k, e);
    return true;
  }
  set(k: string, e: number, now: number) {
    this.sweep(now);
    if (!this.entries.has(k)) while (this.entries.size >= this.max) this.evictSoonest();
    this.entries.set(k, e);
  }
}

const op = fc.record({
  kind: fc.constantFrom('add', 'add', 'add', 'set', 'delete', 'has'),
  key: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'),
  ttl: fc.integer({ min: -5, max: 60 }),
  advance: fc.integer({ min: 0, max: 10 }),
});

describe('ExpirySet (queue + heap) agrees with a naive model', () => {
  it('for any sequence of adds, sets, deletes and lookups with a moving clock', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(op, { maxLength: 200 }), (max, ops) => {
        const removed: string[] = [];
        const set = new ExpirySet(max, (k) => removed.push(k));
        const model = new Model(max);
        let now = 1_777_464_000_000;
        ops.forEach((o, i) => {
          now += o.advance;
          // Distinct expiries (a fraction from the op index), so "soonest" is never a tie.
          const expiresAt = now + o.ttl + i / 1000;
          if (o.kind === 'add') expect(set.add(o.key, expiresAt, now)).toBe(model.add(o.key, expiresAt, now));
          if (o.kind === 'set') {
            set.set(o.key, expiresAt, now);
            model.set(o.key, expiresAt, now);
          }
          if (o.kind === 'delete') {
            set.delete(o.key);
            model.entries.delete(o.key);
          }
          if (o.kind === 'has') {
            const e = model.entries.get(o.key);
            expect(set.has(o.key, now)).toBe(e !== undefined && now <= e);
          }
          expect(set.size).toBeLessThanOrEqual(max);
        });
        set.sweep(now);
        model.sweep(now);
        expect(set.size).toBe(model.entries.size);
        for (const k of model.entries.keys()) expect(set.has(k, now)).toBe(true);
        expect(removed.sort()).toEqual(model.removed.sort());
      }),
      { numRuns: 500 },
    );
  });
});
