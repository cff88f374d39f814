import type { Route } from './types.js';

/** A compact route: `'METHOD /path'` (`~` stands for `/api/v1`), flags, extras. */
export type CompactRoute = readonly [
  methodAndPath: string,
  /**
   * `i` idempotent · `A`/`B` pagination style · `j`/`m`/`f` JSON, multipart or form body · `k` send an
   * Idempotency-Key (the operation declares the header) · `b`/`t`/`e` binary, text or empty answer.
   */
  flags: string,
  extra?: {
    /** Query keys of an operation that also has a body. */
    q?: readonly string[];
    /** Name of the items array of a paginated answer. */
    n?: string;
    /** Durable write action name. */
    w?: string;
    /** Deprecated parameters and their replacements. */
    d?: Readonly<Record<string, string>>;
    /** Keys that stay snake_case in the default contract. */
    s?: readonly string[];
  },
];

/** Expands the generated compact table into {@link Route}s, keyed by operation id. */
export function routeTable<const T extends Record<string, CompactRoute>>(
  table: T,
): { readonly [K in keyof T]: Route } {
  const out: Record<string, Route> = {};
  for (const [id, [mp, flags, extra]] of Object.entries(table)) {
    const space = mp.indexOf(' ');
    const rawPath = mp.slice(space + 1);
    const path = rawPath.startsWith('~') ? `/api/v1${rawPath.slice(1)}` : rawPath;
    const has = (f: string) => flags.includes(f);
    out[id] = {
      id,
      method: mp.slice(0, space) as Route['method'],
      path,
      pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!),
      idempotent: has('i'),
      ...(has('A') && { pagination: 'A' as const }),
      ...(has('B') && { pagination: 'B' as const }),
      ...(has('j') && { body: 'json' as const }),
      ...(has('m') && { body: 'multipart' as const }),
      ...(has('f') && { body: 'form' as const }),
      ...(has('k') && { idempotencyKey: true }),
      ...(has('b') && { kind: 'binary' as const }),
      ...(has('t') && { kind: 'text' as const }),
      ...(has('e') && { kind: 'empty' as const }),
      ...(extra?.q && { queryKeys: extra.q }),
      ...(extra?.n && { items: extra.n }),
      ...(extra?.w && { writeAction: extra.w }),
      ...(extra?.d && { deprecatedParams: extra.d }),
      ...(extra?.s && { snakeKeys: extra.s }),
    };
  }
  return out as { readonly [K in keyof T]: Route };
}
