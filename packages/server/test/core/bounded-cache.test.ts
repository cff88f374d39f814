import { describe, expect, it } from 'vitest';
import { BoundedCache } from '../../src/core/bounded-cache.js';

describe('BoundedCache', () => {
  it('makes a value once per owner and key', () => {
    const cache = new BoundedCache<object, { n: number }>(10);
    const [a, b] = [{}, {}];
    let made = 0;
    const make = () => ({ n: ++made });
    const first = cache.get(a, 'k', make);
    expect(cache.get(a, 'k', make)).toBe(first);
    expect(cache.get(b, 'k', make)).not.toBe(first);
    expect(made).toBe(2);
  });

  it('drops the oldest-added entry of an owner at the limit', () => {
    const cache = new BoundedCache<object, { key: string }>(2);
    const owner = {};
    const made: string[] = [];
    const get = (key: string) =>
      cache.get(owner, key, () => {
        made.push(key);
        return { key };
      });
    get('a');
    get('b');
    get('a');
    get('c'); // evicts a, the oldest added
    get('b');
    get('a');
    expect(made).toEqual(['a', 'b', 'c', 'a']);
  });

  it('stores nothing when making throws, and asks again the next time', () => {
    const cache = new BoundedCache<object, { ok: true }>(2);
    const owner = {};
    let calls = 0;
    const refuse = () => {
      calls++;
      throw new Error('refused');
    };
    expect(() => cache.get(owner, 'k', refuse)).toThrow('refused');
    expect(() => cache.get(owner, 'k', refuse)).toThrow('refused');
    expect(calls).toBe(2);
  });
});
