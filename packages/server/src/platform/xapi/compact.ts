type RequiredKeys<T> = { [K in keyof T]: undefined extends T[K] ? never : K }[keyof T];
type OptionalKeys<T> = { [K in keyof T]: undefined extends T[K] ? K : never }[keyof T];

/** `T` with every key whose value may be `undefined` made optional and `undefined` taken out of its type. */
export type Compacted<T> = { [K in RequiredKeys<T>]: T[K] } & {
  [K in OptionalKeys<T>]?: Exclude<T[K], undefined>;
};

/**
 * Drops the keys whose value is `undefined`: the API omits an unavailable optional field rather than sending
 * it empty (spec 2.1), and the strict response schemas refuse a key that is present but undefined.
 */
export function compact<T extends Record<string, unknown>>(obj: T): Compacted<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) if (v !== undefined) out[k] = v;
  return out as Compacted<T>;
}

/** `list` when it has items, else `undefined` (so that `compact` drops it). */
export function nonEmpty<T>(list: T[] | undefined): T[] | undefined {
  return list && list.length > 0 ? list : undefined;
}
