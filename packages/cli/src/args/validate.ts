import type { AnyOperation, Schema } from '@xsvc/sdk/contract';
import { UsageError } from '../errors.js';
import type { OperationCheck } from '../table/check-types.js';
import { loadChecks } from '../table/index.generated.js';
import type { CommandSpec } from '../table/types.js';
import type { Collected } from './collect.js';

/** The parts of a zod issue and parse result read here. */
interface Issue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly code?: string;
}
interface Checkable {
  safeParse(v: unknown): { success: boolean; error?: { issues: readonly Issue[] } };
}
/** The branches of a union schema (the contract's helper), else undefined. */
type UnionOptions = (schema: Schema) => readonly Schema[] | undefined;

const MAX_SHOWN = 3;

/** The operation of a command, from the contract (loaded here, on first use: never on help paths). */
export async function operationOf(spec: CommandSpec): Promise<AnyOperation> {
  const { operationsById } = await import('@xsvc/sdk/contract');
  const op = (operationsById as Readonly<Record<string, AnyOperation>>)[spec.op];
  if (!op) throw new Error(`the command table names an unknown operation ${spec.op}: rebuild @xsvc/cli`);
  return op;
}

/** How thoroughly {@link validateParams} checks. */
export interface ValidateOptions {
  /**
   * Run the contract itself even when the quick check passes: for a dry run or a URL to open, where no
   * service will have the last word, and after the service refused the request.
   */
  readonly full?: boolean;
  /** The service refused the request already: the error says so instead of "nothing was sent". */
  readonly refused?: boolean;
}

/**
 * Validates the parameters before anything is sent: first with the quick checks generated from the
 * contract (no zod loaded: this is every command's hot path), then, when they fail or `full` asks, with
 * the contract's own schemas (path, query, body), whose first problems become a usage error naming the
 * flags to fix. The quick checks skip the contract's refinements; the service runs them, and a 400 from it
 * comes back here with `full` and `refused` (see `exec/operation.ts`).
 */
export async function validateParams(
  spec: CommandSpec,
  collected: Collected,
  options: ValidateOptions = {},
): Promise<void> {
  if (!options.full && (await quickPasses(spec, collected))) return;
  const op = await operationOf(spec);
  const { unionOptions } = await import('@xsvc/sdk/contract');
  const parts = partition(
    spec,
    collected,
    new Set(Object.keys((op.query as { shape?: object } | null)?.shape ?? {})),
    op.body !== null && op.body !== undefined,
  );
  const issues = [
    ...check(op.params, parts.path, unionOptions),
    ...check(op.query, parts.query, unionOptions),
    ...check(op.body, parts.body, unionOptions),
  ];
  if (issues.length === 0) return;
  const lines = issues.slice(0, MAX_SHOWN).map((i) => describeIssue(i, spec, collected));
  const first = issues[0]!.path[0];
  throw new UsageError(
    lines.join('; ') + (issues.length > MAX_SHOWN ? ` (and ${issues.length - MAX_SHOWN} more)` : ''),
    `See \`xsvc ${spec.path.join(' ')} --help\`. ${options.refused ? 'The service refused it: nothing was done.' : 'Nothing was sent.'}`,
    issues.some((i) => collected.params[String(i.path[0])] === undefined)
      ? 'missing_params'
      : 'invalid_input',
    first === undefined ? undefined : nameOf(String(first), spec, collected),
  );
}

/** The generated checks of {@link validateParams}'s first pass. */
async function quickPasses(spec: CommandSpec, collected: Collected): Promise<boolean> {
  const load = Object.hasOwn(loadChecks, spec.path[0]!) ? loadChecks[spec.path[0]!] : undefined;
  if (!load) return false;
  // Only the checks of the command's own resource are loaded.
  const [checks, { passes }] = await Promise.all([load(), import('./quick-check.js')]);
  const text = checks[spec.op];
  if (text === undefined) return false;
  const c = JSON.parse(text) as OperationCheck;
  const parts = partition(spec, collected, new Set(c.queryKeys), c.body !== undefined);
  return (
    (!c.params || passes(c.params, parts.path)) &&
    (!c.query || passes(c.query, parts.query)) &&
    (!c.body || passes(c.body, parts.body))
  );
}

/** The parameters by the part of the request they go to: the path, the query, else the body. */
function partition(
  spec: CommandSpec,
  collected: Collected,
  queryKeys: ReadonlySet<string>,
  hasBody: boolean,
): Record<'path' | 'query' | 'body', Record<string, unknown>> {
  const pathKeys = new Set([...spec.route.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!));
  const parts = { path: {}, query: {}, body: {} } as Record<
    'path' | 'query' | 'body',
    Record<string, unknown>
  >;
  for (const [k, v] of Object.entries(collected.params)) {
    const part = pathKeys.has(k) ? 'path' : queryKeys.has(k) || !hasBody ? 'query' : 'body';
    parts[part][k] = v;
  }
  return parts;
}

/** The issues of one part; for a union of request shapes, those of the closest shape. */
function check(
  schema: Schema | null,
  value: Record<string, unknown>,
  unionOptions: UnionOptions,
): readonly Issue[] {
  if (!schema) return [];
  const result = (schema as Checkable).safeParse(value);
  if (result.success) return [];
  const options = unionOptions(schema);
  if (options && options.length > 0) {
    const perOption = options.map((o) => (o as Checkable).safeParse(value).error?.issues ?? []);
    return perOption.reduce((best, next) => (next.length < best.length ? next : best));
  }
  return result.error?.issues ?? [];
}

/** How a parameter is named to the user: as they gave it, else its positional argument or flag. */
function nameOf(key: string, spec: CommandSpec, collected: Collected): string {
  const given = collected.shownAs[key];
  if (given) return given;
  const arg = spec.args.find((a) => a.key === key);
  const flag = spec.flags.find((f) => f.key === key);
  if (arg && flag) return `<${arg.name}> (or --${flag.flag})`;
  if (arg) return `<${arg.name}>`;
  return flag ? `--${flag.flag}` : key;
}

function describeIssue(issue: Issue, spec: CommandSpec, collected: Collected): string {
  if (issue.path.length === 0) return issue.message;
  const [key, ...rest] = issue.path.map(String);
  const name =
    nameOf(key!, spec, collected) + rest.map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`)).join('');
  if (rest.length === 0 && issue.code === 'invalid_type' && collected.params[key!] === undefined) {
    return `${name} is required`;
  }
  return `${name}: ${issue.message}`;
}
