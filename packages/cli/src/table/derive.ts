import { type AnyOperation, defType } from '@xsvc/sdk/contract';
import {
  describeSchema,
  fieldsOf,
  isRequired,
  mergedFlagType,
  numberBounds,
  type SchemaLike,
} from './schema-info.js';
import type { ArgSpec, CommandSpec, FlagSpec } from './types.js';

/**
 * Derives the command table from the contract: one command per operation, named by its SDK path in
 * kebab-case, positional arguments from its path parameters (and the one obvious required parameter),
 * typed flags from its query and body. Run by `pnpm generate`; nothing here is hand-written per operation.
 */

/** Flags the CLI owns on every command; a parameter with one of these names gets a `-param` suffix. */
const RESERVED_FLAGS = ['json', 'profile', 'base-url', 'dry-run', 'color', 'help', 'version', 'data'];
/** Flags the CLI adds to listings, durable writes and binary answers. */
const LISTING_FLAGS = ['all', 'limit', 'cursor'];
const WRITE_FLAGS = ['wait', 'wait-timeout'];
const KEY_FLAGS = ['idempotency-key'];
const BINARY_FLAGS = ['output'];

/** The flags of the CLI itself on an operation's command. */
export function reservedFlags(op: AnyOperation): Set<string> {
  return new Set([
    ...RESERVED_FLAGS,
    ...(op.pagination ? LISTING_FLAGS : []),
    ...(op.writeAction ? WRITE_FLAGS : []),
    ...(op.headers?.['Idempotency-Key'] ? KEY_FLAGS : []),
    ...(op.responseKind === 'binary' ? BINARY_FLAGS : []),
  ]);
}

/**
 * Shorter names for long, common parameters: the flag is the short name (in help, completion, examples and
 * the guides), and the parameter's own kebab-case name stays accepted as a hidden alias.
 */
const SHORT_NAMES: Readonly<Record<string, string>> = { eventTypes: 'events' };

/** Positional names that say more than the parameter's (`<q>` takes a search query). */
const ARG_NAMES: Readonly<Record<string, string>> = { q: 'query' };

/**
 * Parameters that are secrets: read from stdin, an environment variable or a hidden prompt, never from
 * the command line, and redacted wherever the CLI prints a request.
 */
const SECRET_PARAMS = new Set(['password', 'totp_secret', 'client_secret']);

/** The environment variable a secret flag is read from (`totp-secret` → `XSVC_TOTP_SECRET`). */
export function secretEnv(flag: string): string {
  return `XSVC_${flag.replace(/-/g, '_').toUpperCase()}`;
}

/** Parameters that name the acting connected account: never the "obvious" positional one. */
const CONTEXT_PARAMS = new Set(['account']);

/** `queryType` → `query-type`, `session_id` → `session-id`. */
export function kebab(name: string): string {
  return name
    .replace(/_/g, '-')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1-$2')
    .toLowerCase();
}

const asSchema = (s: unknown): SchemaLike | null => (s ? (s as SchemaLike) : null);

/** Every operation as a command. */
export function deriveCommands(ops: readonly AnyOperation[]): CommandSpec[] {
  return ops.map(deriveCommand);
}

/** One operation as a command. */
export function deriveCommand(op: AnyOperation): CommandSpec {
  const pathParams = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const paramFields = fieldsOf(asSchema(op.params));
  const query = fieldsOf(asSchema(op.query));
  const bodySchema = asSchema(op.body);
  const body = fieldsOf(bodySchema);
  const bodyIsUnion = bodySchema !== null && defType(bodySchema) === 'union';
  const size = pageSizeOf(op, query);
  const pageKeys = pageKeysOf(op, query);
  if (size?.key === 'limit') pageKeys.add('limit');
  const fields: [string, SchemaLike[], boolean][] = [
    ...Object.entries(query).map(([k, s]): [string, SchemaLike[], boolean] => [k, s, isRequired(s[0]!)]),
    ...Object.entries(body)
      .filter(([k]) => !(k in query))
      .map(([k, s]): [string, SchemaLike[], boolean] => [k, s, !bodyIsUnion && isRequired(s[0]!)]),
  ].filter(([k]) => !pageKeys.has(k) && !pathParams.includes(k));

  const reserved = reservedFlags(op);
  const flags: FlagSpec[] = [];
  for (const [key, schemas, required] of fields) {
    const flag = flagFor(op, key, schemas, required, reserved);
    // Two spellings of one parameter (`maxItems`, `max_items`) make one flag: the first; --data sends either.
    if (!flags.some((f) => f.flag === flag.flag)) flags.push(flag);
  }
  const args: ArgSpec[] = pathParams.map((name) => argFor(name, true, paramFields[name]?.[0]));
  let obvious: FlagSpec | undefined;
  if (pathParams.length === 0) {
    obvious = obviousParam(flags);
    if (obvious) args.push(argFor(obvious.key, false, undefined, obvious.description));
  }
  const example = peopleExample(op.example ?? op.sdk.map(kebab).join(' '), op.sdk.length, flags, obvious);
  const { forPeople, wire } = splitDescription(op.description);
  return {
    path: op.sdk.map(kebab),
    sdk: [...op.sdk],
    op: op.id,
    method: op.method,
    route: op.path,
    summary: op.summary,
    ...(forPeople !== undefined && { description: forPeople }),
    ...(wire !== undefined && { wire }),
    example,
    args,
    flags,
    auth: !op.auth.includes('none'),
    ...(op.body && { body: op.bodyEncoding ?? 'json' }),
    ...(op.pagination && { pagination: op.pagination }),
    ...(op.items !== undefined && { items: op.items }),
    ...(size && { pageSize: size }),
    ...(op.writeAction !== undefined && { write: true }),
    ...(op.headers?.['Idempotency-Key'] && { idempotencyKey: true }),
    ...(isRedirect(op.success[0]) && { redirect: true }),
    ...(op.responseKind && op.responseKind !== 'json' && { response: op.responseKind }),
    ...(op.deprecated?.operation && { deprecated: true }),
    ...(op.auth.includes('payment') &&
      op.cost.kind === 'per_call' &&
      op.cost.mppMicroUsd !== undefined && { machinePayment: op.cost.mppMicroUsd }),
  };
}

function flagFor(
  op: AnyOperation,
  key: string,
  schemas: readonly SchemaLike[],
  required: boolean,
  reserved: ReadonlySet<string>,
): FlagSpec {
  const schema = schemas[0]!;
  const { type, choices } = mergedFlagType(schemas);
  const base = SHORT_NAMES[key] ?? kebab(key);
  const flag = reserved.has(base) ? `${base}-param` : base;
  const description = describeSchema(schema);
  const deprecated = op.deprecated?.params?.[key];
  return {
    flag,
    key,
    type,
    ...(required && { required: true }),
    ...(choices && { choices }),
    ...(description !== undefined && { description }),
    ...(SHORT_NAMES[key] !== undefined && { alias: kebab(key) }),
    ...(deprecated !== undefined && { deprecated }),
    ...(SECRET_PARAMS.has(key) && { secret: secretEnv(flag) }),
  };
}

/**
 * An example without its secret flags (`--password "$X_PASSWORD"`): the CLI refuses secrets as values,
 * and an example must work as printed. The secrets then come from their variables or a prompt.
 */
function withoutSecrets(example: string, flags: readonly FlagSpec[]): string {
  let out = example;
  for (const f of flags) {
    if (!f.secret) continue;
    out = out.replace(new RegExp(` --${f.flag}(?:=| )(?:"[^"]*"|'[^']*'|\\S+)`, 'g'), '');
  }
  return out;
}

function argFor(key: string, required: boolean, schema: SchemaLike | undefined, fallback?: string): ArgSpec {
  const description = (schema && describeSchema(schema)) ?? fallback;
  const name = argName(key, description);
  return { name, key, required, ...(description !== undefined && { description }) };
}

/**
 * The name shown for a positional: what it takes, where the parameter's name does not say it. A bare `id`
 * that also takes a username or a URL is named by the thing (`users get <user>`: "The user: numeric user
 * id, username…", `styles get <style>`: "Style id, or the username…"); other ids keep `<id>`.
 */
export function argName(key: string, description: string | undefined): string {
  if (ARG_NAMES[key] !== undefined) return ARG_NAMES[key];
  if (key === 'id' && description !== undefined) {
    const thing = /^The (?:other )?([a-z]+)(?::| carrying)/.exec(description)?.[1];
    if (thing) return thing;
    const owned = /^([A-Z][a-z]+) id, or\b/.exec(description)?.[1];
    if (owned) return owned.toLowerCase();
  }
  return kebab(key);
}

/**
 * The contract's example as a person would type it: the obvious parameter as the positional argument
 * (`tweets search "from:jack"`, not `--q "from:jack"`), flags by their shown name (`--events`), and no
 * secret flags (see {@link withoutSecrets}).
 */
function peopleExample(
  example: string,
  pathLength: number,
  flags: readonly FlagSpec[],
  obvious: FlagSpec | undefined,
): string {
  let out = withoutSecrets(example, flags);
  for (const f of flags) {
    if (f.alias) out = out.replace(new RegExp(`--${f.alias}(?=[= ]|$)`, 'g'), `--${f.flag}`);
  }
  const m = obvious && new RegExp(` --${obvious.flag}(?:=| )("[^"]*"|'[^']*'|[^\\s-]\\S*)`).exec(out);
  if (m) {
    const rest = out.slice(0, m.index) + out.slice(m.index + m[0].length);
    const head = rest.split(' ').slice(0, pathLength).join(' ');
    out = `${head} ${m[1]}${rest.slice(head.length)}`;
  }
  return out;
}

/**
 * Sentences of an operation's description that only concern the wire: how cursors page (Style-A/B, `after`,
 * `next_cursor`) and how 409/410 cursor errors are retried. The CLI does all of that itself (`--all`,
 * `--limit`, `--cursor`, the SDK's retries), so its help shows them only with `--verbose`; the reference
 * page keeps the whole description.
 */
const WIRE = new RegExp(
  [
    'Style-[AB] pages',
    'coverage_cursor_',
    'page with `after` until `hasMore` is false\\.$',
    'is the deprecated older name of `cursor`',
    'Durable write: send an `Idempotency-Key`',
    '`Idempotency-Key` header \\(',
    'Requires an `Idempotency-Key` header',
    'poll again after `pollAfterMs`',
  ].join('|'),
);

/** The description split into what a person needs and the wire details (each undefined when empty). */
export function splitDescription(text: string | undefined): { forPeople?: string; wire?: string } {
  if (text === undefined) return {};
  const sentences = text.split(/(?<=[.!?])\s+(?=[A-Z`])/);
  const people: string[] = [];
  const wire: string[] = [];
  for (const s of sentences) (WIRE.test(s) ? wire : people).push(s.trim());
  const join = (parts: string[]) => (parts.length > 0 ? parts.filter(Boolean).join(' ') : undefined);
  const forPeople = join(people);
  const wired = join(wire);
  return {
    ...(forPeople !== undefined && forPeople !== '' && { forPeople }),
    ...(wired !== undefined && wired !== '' && { wire: wired }),
  };
}

/**
 * The one required parameter a user would type bare (`tweets search "from:jack"`, `draws run <url>`):
 * the only required one, else the only required single value when it is text (`monitors create jack
 * --events …`). The acting account never is.
 */
function obviousParam(flags: readonly FlagSpec[]): FlagSpec | undefined {
  const required = flags.filter((f) => f.required && !CONTEXT_PARAMS.has(f.key) && !f.secret);
  const typed = (f: FlagSpec) => f.type !== 'json' && f.type !== 'file';
  if (required.length === 1 && typed(required[0]!)) return required[0];
  const single = required.filter((f) => f.type !== 'list' && typed(f));
  return single.length === 1 && single[0]!.type === 'string' ? single[0] : undefined;
}

/** The cursor parameters of a listing, replaced by the CLI's own `--cursor` (and `--limit`). */
function pageKeysOf(op: AnyOperation, query: Record<string, SchemaLike[]>): Set<string> {
  const keys = new Set<string>();
  if (!op.pagination) return keys;
  for (const k of op.pagination === 'A' ? ['after', 'cursor'] : ['cursor']) if (k in query) keys.add(k);
  return keys;
}

/**
 * The parameter that `--limit` also sets: `limit` where there is one (a page size, or the most results of
 * one request), else `pageSize`.
 */
function pageSizeOf(op: AnyOperation, query: Record<string, SchemaLike[]>): CommandSpec['pageSize'] {
  if (!op.pagination) return undefined;
  const key = 'limit' in query ? 'limit' : 'pageSize' in query ? 'pageSize' : undefined;
  if (!key) return undefined;
  const { min = 1, max = Number.MAX_SAFE_INTEGER } = numberBounds(query[key]![0]!);
  return { key, min, max };
}

const isRedirect = (status: number | undefined) => status !== undefined && status >= 300 && status < 400;
