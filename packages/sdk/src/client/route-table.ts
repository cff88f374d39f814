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
  // Runs once per import over every operation: plain loops and assignments (no regex, no spreads), since
  // it is a measurable share of the SDK's cold import.
  const out: Record<string, Route> = {};
  for (const id in table) {
    const [mp, flags, extra] = table[id] as CompactRoute;
    const space = mp.indexOf(' ');
    const path =
      mp.charCodeAt(space + 1) === 126 /* ~ */ ? `/api/v1${mp.slice(space + 2)}` : mp.slice(space + 1);
    const pathParams: string[] = [];
    for (let open = path.indexOf('{'); open !== -1; open = path.indexOf('{', open + 1)) {
      pathParams.push(path.slice(open + 1, path.indexOf('}', open)));
    }
    const route: { -readonly [K in keyof Route]: Route[K] } = {
      id,
      method: mp.slice(0, space) as Route['method'],
      path,
      pathParams,
      idempotent: flags.includes('i'),
    };
    for (const f of flags) {
      if (f === 'A' || f === 'B') route.pagination = f;
      else if (f === 'j') route.body = 'json';
      else if (f === 'm') route.body = 'multipart';
      else if (f === 'f') route.body = 'form';
      else if (f === 'k') route.idempotencyKey = true;
      else if (f === 'b') route.kind = 'binary';
      else if (f === 't') route.kind = 'text';
      else if (f === 'e') route.kind = 'empty';
    }
    if (extra?.q) route.queryKeys = extra.q;
    if (extra?.n) route.items = extra.n;
    if (extra?.w) route.writeAction = extra.w;
    if (extra?.d) route.deprecatedParams = extra.d;
    if (extra?.s) route.snakeKeys = extra.s;
    out[id] = route;
  }
  return out as { readonly [K in keyof T]: Route };
}
