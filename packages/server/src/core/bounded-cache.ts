/**
 * Values made once per owner and key, at most `max` per owner: at the limit the oldest-added entry goes
 * first. The owner is held weakly (a cache ends with its database handle or policy). A `make` that throws
 * stores nothing, so a refusal is asked again the next time.
 */
export class BoundedCache<O extends object, V> {
  private readonly caches = new WeakMap<O, Map<string, V>>();

  constructor(private readonly max: number) {}

  /** The value of `key` for `owner`, made with `make` when it is not held. */
  get(owner: O, key: string, make: () => V): V {
    let cache = this.caches.get(owner);
    if (!cache) {
      cache = new Map();
      this.caches.set(owner, cache);
    }
    let value = cache.get(key);
    if (value === undefined) {
      value = make();
      if (cache.size >= this.max) cache.delete(cache.keys().next().value as string);
      cache.set(key, value);
    }
    return value;
  }
}
