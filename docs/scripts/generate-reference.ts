/**
 * Generates the operation reference of the documentation site from the contract (`@xsvc/sdk/contract`): one
 * page per operation (parameters, responses, error codes, cost, and the same call four ways: SDK, CLI, curl
 * and MCP tool) plus an index, the "Deprecated now" table of `concepts/deprecations.md`, and, from the
 * server's `platform/xapi/operations.ts`, the operations table of `guides/xapi.md` and the call-by-call
 * table of `dev/xapi.md`.
 *
 * The CLI and curl lines and the SDK code come from the CLI itself (`xsvc <example> --dry-run --json`, run
 * in-process), the MCP tool and action from `@xsvc/mcp`'s catalog, so the four never disagree with the
 * packages. `pnpm generate` (at the root: the packages' generators first) writes the files, never the build;
 * `test/reference.test.ts` fails when they are stale. It imports the packages' source (see
 * `tsconfig.generate.json`), so it needs no build.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { type CliIO, commands, run } from '@xsvc/cli';
import { exploreCatalog } from '@xsvc/mcp';
import { type AnyOperation, type ErrorCode, errorCatalog, operations } from '@xsvc/sdk/contract';
import { z } from 'zod';
import {
  BEYOND_REFERENCE,
  X_CALLS,
  XAPI_OPERATIONS,
  type XapiOperation,
} from '../../packages/server/src/platform/xapi/operations.js';

export const DOCS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const REFERENCE_DIR = join(DOCS_DIR, 'reference');
export const DEPRECATIONS_PAGE = join(DOCS_DIR, 'concepts/deprecations.md');
export const XAPI_GUIDE = join(DOCS_DIR, 'guides/xapi.md');
export const XAPI_DEV = join(DOCS_DIR, 'dev/xapi.md');
const BASE_URL = 'http://127.0.0.1:8787';

type Json = { [key: string]: unknown };

/** Splits an example invocation into arguments the way a POSIX shell would (quotes and backslashes). */
export function shellWords(line: string): string[] {
  const out: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unterminated ' in: ${line}`);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let s = '';
      for (i++; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) i++;
        s += line[i];
      }
      if (i >= line.length) throw new Error(`unterminated " in: ${line}`);
      word = (word ?? '') + s;
    } else if (c === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i];
    } else if (/\s/.test(c)) {
      if (word !== undefined) out.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== undefined) out.push(word);
  return out;
}

/**
 * A CLI environment that prints into strings and touches nothing of the user's: its config lives under
 * `home`, `env` adds variables, and `now` is its clock (fixed by default, so generated pages are stable).
 */
export function memoryIo(
  home: string,
  env: Record<string, string> = {},
  now: () => number = () => 0,
): { io: CliIO; out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let o = '';
  let e = '';
  stdout.on('data', (d) => {
    o += String(d);
  });
  stderr.on('data', (d) => {
    e += String(d);
  });
  const stdin = new PassThrough();
  stdin.end();
  const io: CliIO = {
    stdout,
    stderr,
    stdin,
    env: { XDG_CONFIG_HOME: join(home, 'config'), NO_COLOR: '1', ...env },
    cwd: home,
    home,
    clock: { now, sleep: async () => {} },
  };
  return { io, out: () => o, err: () => e };
}

interface DryRun {
  readonly method: string;
  readonly url: string;
  readonly body?: unknown;
  readonly curl: string;
  readonly sdk: string;
}

/** What `xsvc <example> --dry-run --json` prints: the request, as curl and as SDK code. */
export async function dryRun(example: string, home: string): Promise<DryRun> {
  const { io, out, err } = memoryIo(home);
  const words = shellWords(example);
  // Files the example names (`--file ./launch.png`, `--data @body.json`) exist, so the request can be built.
  for (const w of words) {
    const m = /^@?(\.\/[\w./-]+|[\w-]+\.\w+)$/.exec(w);
    if (m && (w.startsWith('@') || w.startsWith('./'))) writeFileSync(join(home, m[1]!), '{}');
  }
  const code = await run([...words, '--dry-run', '--json', '--base-url', BASE_URL], io);
  await new Promise((r) => setImmediate(r));
  if (code !== 0) throw new Error(`xsvc ${example} --dry-run exited ${code}: ${err()}`);
  const request = JSON.parse(out()) as DryRun;
  // The CLI makes up an Idempotency-Key per request; a page shows how to make one instead.
  const curl = request.curl.replace(
    /-H 'idempotency-key: [0-9a-f-]{36}'/i,
    '-H "Idempotency-Key: $(uuidgen)"',
  );
  return { ...request, curl };
}

/** The parameters of the request, as the MCP tool takes them in `params` (path, query and body together). */
function mcpParams(op: AnyOperation, request: DryRun): Json {
  const url = new URL(request.url);
  const params: Json = {};
  const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const pattern = new RegExp(
    `^${op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '([^/]+)')}$`,
  );
  const values = pattern.exec(url.pathname)?.slice(1) ?? [];
  names.forEach((n, i) => {
    if (values[i] !== undefined) params[n] = decodeURIComponent(values[i]!);
  });
  for (const [k, v] of url.searchParams) params[k] = /^\d+$/.test(v) && !/id$/i.test(k) ? Number(v) : v;
  if (request.body && typeof request.body === 'object' && !Array.isArray(request.body))
    Object.assign(params, request.body);
  return params;
}

const cell = (text: string) =>
  text
    .replace(/\|/g, '\\|')
    .replace(/\n+/g, ' ')
    .replace(/</g, '&lt;')
    .replace(/\{\{/g, '&#123;&#123;')
    .trim();

/** Prose from the contract, safe for VitePress (no raw tags or Vue interpolation outside code spans). */
const prose = (text: string) =>
  text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 ? part : part.replace(/</g, '&lt;').replace(/\{\{/g, '&#123;&#123;')))
    .join('');

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Json {
  return z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
}

/** Enums of more values than this are listed in the description cell, not in the type cell. */
const INLINE_ENUM = 6;

/**
 * The values of a long enum (the schema's own, or its items' for an array, or a union member's), or none
 * when the schema is no long enum: listed after the description so the type column stays narrow.
 */
function longEnumValues(s: Json | undefined): unknown[] | undefined {
  if (!s) return undefined;
  if (Array.isArray(s.enum)) return s.enum.length > INLINE_ENUM ? (s.enum as unknown[]) : undefined;
  if (s.type === 'array') return longEnumValues(s.items as Json | undefined);
  const union = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  for (const member of union ?? []) {
    const values = longEnumValues(member);
    if (values) return values;
  }
  return undefined;
}

/** A short type name of a JSON Schema: `string`, `integer`, `"a" \| "b"`, `array of string`, `object`. */
function typeName(s: Json | undefined): string {
  if (!s) return 'any';
  if (Array.isArray(s.enum)) {
    const vals = (s.enum as unknown[]).map((v) => JSON.stringify(v));
    return vals.length > INLINE_ENUM ? 'enum' : vals.join(' | ');
  }
  if (s.const !== undefined) return JSON.stringify(s.const);
  const union = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  if (union) return [...new Set(union.map(typeName))].join(' or ');
  if (s.type === 'array') return `array of ${typeName(s.items as Json | undefined)}`;
  if (Array.isArray(s.type)) return (s.type as string[]).join(' or ');
  if (typeof s.type === 'string') return s.format ? `${s.type} (${s.format})` : s.type;
  return 'any';
}

/** Rows of a parameter or field table from an object schema (a non-object schema gives no rows). */
function fieldRows(s: Json, requiredMark: boolean): string[] {
  const props = s.properties as Record<string, Json> | undefined;
  if (!props) return [];
  const required = new Set((s.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, p]) => {
    const bounds = [
      p.minimum !== undefined ? `min ${p.minimum}` : '',
      p.maximum !== undefined && Number(p.maximum) < Number.MAX_SAFE_INTEGER ? `max ${p.maximum}` : '',
      p.maxLength !== undefined ? `${p.minLength ?? 0}-${p.maxLength} chars` : '',
      p.default !== undefined ? `default \`${JSON.stringify(p.default)}\`` : '',
    ]
      .filter(Boolean)
      .join(', ');
    const values = longEnumValues(p);
    const desc =
      cell(String(p.description ?? '')) +
      (bounds ? ` (${bounds})` : '') +
      (values
        ? ` ${p.type === 'array' ? 'Each one of' : 'One of'}: ${values.map((v) => cell(`\`${String(v)}\``)).join(', ')}.`
        : '') +
      (p.deprecated ? ' **Deprecated.**' : '');
    const req = requiredMark
      ? required.has(name)
        ? 'yes'
        : 'no'
      : required.has(name)
        ? 'always'
        : 'optional';
    return `| \`${name}\` | ${cell(typeName(p))} | ${req} | ${desc} |`;
  });
}

function paramTable(title: string, schema: z.ZodType | null): string {
  if (!schema) return '';
  const js = jsonSchemaOf(schema, 'input');
  const rows = fieldRows(js, true);
  if (rows.length === 0) {
    return `### ${title}\n\n\`\`\`json\n${JSON.stringify(js, null, 2)}\n\`\`\`\n`;
  }
  return `### ${title}\n\n| name | type | required | description |\n|---|---|---|---|\n${rows.join('\n')}\n`;
}

export function costText(op: AnyOperation): string {
  const c = op.cost;
  switch (c.kind) {
    case 'free':
      return 'free';
    case 'per_call':
      return `${c.credits} credit${c.credits === 1 ? '' : 's'} per call${c.mppMicroUsd ? ` (or ${c.mppMicroUsd} µUSD per call as a machine payment)` : ''}`;
    case 'per_result':
      return `${c.credits} credit${c.credits === 1 ? '' : 's'} per result`;
    case 'metered':
      return `metered: ${c.note}`;
  }
}

const AUTH_NAMES: Record<string, string> = {
  apiKey: 'API key',
  oauth: 'OAuth access token',
  session: 'session cookie',
  guest: 'guest key',
  payment: 'machine payment',
  none: 'none (public)',
};

function responseSection(op: AnyOperation): string {
  const status = op.success.join(', ');
  if (op.responseKind === 'binary')
    return `## Response\n\n\`${status}\`: the file itself (binary; the SDK answers a \`Response\`).\n`;
  if (op.responseKind === 'empty') return `## Response\n\n\`${status}\`: no body.\n`;
  const js = jsonSchemaOf(op.response, 'output');
  const rows = fieldRows(js, false);
  const paging = op.pagination
    ? `\n\nPaginated, style ${op.pagination}: the items are in \`${op.items}\`; ${
        op.pagination === 'A'
          ? 'send `after` with the previous `nextCursor` while `hasMore` is true'
          : 'send `cursor` with the previous `next_cursor` while `has_next_page` is true'
      } (see [pagination](../concepts/pagination.md)).`
    : '';
  const table = rows.length
    ? `\n\n| field | type | present | description |\n|---|---|---|---|\n${rows.join('\n')}`
    : `\n\n${typeName(js)}.`;
  return `## Response\n\n\`${status}\`${op.responseKind === 'text' ? ' (text)' : ''}.${paging}${table}\n`;
}

function errorsSection(op: AnyOperation): string {
  const codes = [...new Set<ErrorCode>(['invalid_input', ...op.errors])];
  const rows = codes
    .map((code) => {
      const e = errorCatalog[code];
      return { code, status: e.status, retry: e.retry };
    })
    .sort((a, b) => a.status - b.status || a.code.localeCompare(b.code))
    .map((e) => `| ${e.status} | \`${e.code}\` | ${e.retry} |`);
  return `## Errors\n\nBeyond 401 \`unauthenticated\` and 429 \`rate_limit_exceeded\`, which any authenticated operation may answer (see [errors](../concepts/errors.md)):\n\n| status | code | retry |\n|---|---|---|\n${rows.join('\n')}\n`;
}

interface McpEntry {
  readonly operation: string;
  readonly tool?: string;
  readonly action?: string;
  readonly available: boolean;
  readonly reason?: string;
  readonly write: boolean;
}

function mcpSection(op: AnyOperation, entry: McpEntry | undefined, request: DryRun): string {
  if (!entry?.tool || !entry.action) {
    const why = entry?.reason ?? 'not served as an MCP tool';
    return `**MCP**: not served as a tool (${prose(why.replace(/\.$/, ''))}).\n`;
  }
  const call = { name: entry.tool, arguments: { action: entry.action, params: mcpParams(op, request) } };
  const note = entry.write
    ? ' A write tool: served with `--enable-writes` (stdio) or `XSVC_MCP_ENABLE_WRITES=1` (remote `/mcp`).'
    : '';
  return `**MCP** (\`tools/call\` of tool \`${entry.tool}\`, action \`${entry.action}\`).${note}\n\n\`\`\`json\n${JSON.stringify(call, null, 2)}\n\`\`\`\n`;
}

/** The CLI's SDK code, with the client built from the environment (XSVC_API_KEY, XSVC_BASE_URL). */
function sdkCode(code: string): string {
  return code
    .replace(/await openAsBlob\('\.\/([\w.-]+)'\)/g, "new File([await openAsBlob('./$1')], '$1')")
    .replace(
      /const xsvc = new Xsvc\(\{[^\n]*\}\);/,
      '// The API key and base URL come from XSVC_API_KEY and XSVC_BASE_URL.\nconst xsvc = new Xsvc();',
    );
}

export function renderPage(
  op: AnyOperation,
  request: DryRun,
  example: string,
  mcp: McpEntry | undefined,
): string {
  const facts = [
    `**Tag**: ${op.tag}`,
    `**Auth**: ${op.auth.map((a) => AUTH_NAMES[a] ?? a).join(', ')}`,
    `**Cost**: ${prose(costText(op))}`,
    `**Idempotent**: ${op.idempotent ? 'yes' : 'no'}`,
    ...(op.writeAction
      ? [`**Durable write**: \`${op.writeAction}\` (may answer 202 with an active write action)`]
      : []),
    ...Object.entries(op.headers ?? {}).map(
      ([name, h]) =>
        `**Header \`${name}\`** (${h?.required ? 'required' : 'optional'}): ${prose(h?.description ?? '')}`,
    ),
    ...(op.deprecated?.operation
      ? ['**Deprecated**: see the [deprecation policy](../concepts/deprecations.md)']
      : []),
  ];
  const params = [
    paramTable('Path parameters', op.params),
    paramTable('Query parameters', op.query),
    paramTable(
      `Body${op.bodyEncoding && op.bodyEncoding !== 'json' ? ` (${op.bodyEncoding})` : ''}`,
      op.body,
    ),
  ].filter(Boolean);
  return `<!-- Generated by docs/scripts/generate-reference.ts from the contract. Do not edit. -->

# ${op.id}

${prose(op.summary)}.

\`${op.method} ${op.path}\`

${facts.map((f) => `- ${f}`).join('\n')}
${op.description ? `\n${prose(op.description)}\n` : ''}
## Parameters

${params.length ? params.join('\n') : 'None.\n'}
${responseSection(op)}
${errorsSection(op)}
## Examples

**SDK** (\`@xsvc/sdk\`)

\`\`\`ts
${sdkCode(request.sdk)}
\`\`\`

**CLI** (\`@xsvc/cli\`)

\`\`\`sh
xsvc ${example}
\`\`\`

**curl**

\`\`\`sh
${request.curl}
\`\`\`

${mcpSection(op, mcp, request)}`;
}

function renderIndex(ops: readonly AnyOperation[]): string {
  const byTag = new Map<string, AnyOperation[]>();
  for (const op of ops) byTag.set(op.tag, [...(byTag.get(op.tag) ?? []), op]);
  const sections = [...byTag.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([tag, list]) =>
        `## ${tag}\n\n| operation | request | summary | cost |\n|---|---|---|---|\n${list
          .map(
            (op) =>
              `| [${op.id}](./${op.id}.md) | \`${op.method} ${op.path}\` | ${cell(op.summary)} | ${cell(costText(op))} |`,
          )
          .join('\n')}\n`,
    );
  return `<!-- Generated by docs/scripts/generate-reference.ts from the contract. Do not edit. -->

# API reference

Every operation of the service (${ops.length}), generated from the contract that the SDK, the CLI, the server and the MCP tools are built from. Each page gives the parameters, the response, the error codes, the cost and the same call four ways: SDK, CLI, curl and MCP tool. The machine-readable form is the server's \`/openapi.json\`.

${sections.join('\n')}`;
}

const day = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString().slice(0, 10);

/** The "Deprecated now" table: one row per deprecated operation, parameter or field of the contract. */
export function deprecationRows(
  ops: readonly AnyOperation[] = operations as readonly AnyOperation[],
): string {
  const out = ['| request | deprecated item | replacement | since |', '|---|---|---|---|'];
  for (const op of ops) {
    const dep = op.deprecated;
    if (!dep) continue;
    const request = `\`${op.method} ${op.path}\``;
    const replacement = (r: string) => (r ? `\`${r}\`` : 'none');
    if (dep.operation) out.push(`| ${request} | the operation | see its description | ${day(dep.since)} |`);
    for (const [p, r] of Object.entries(dep.params ?? {}))
      out.push(`| ${request} | \`${p}\` parameter | ${replacement(r)} | ${day(dep.since)} |`);
    for (const [f, r] of Object.entries(dep.fields ?? {}))
      out.push(`| ${request} | \`${f}\` field | ${replacement(r)} | ${day(dep.since)} |`);
  }
  return out.join('\n');
}

const HANDLING: Record<XapiOperation['xapi'], string> = {
  'x-read': 'X, app token',
  'user-token': 'X, account’s token',
  'x-oauth': 'X’s OAuth 2.0',
  'own-data': 'server only',
  refused: 'refused',
};

const SUMMARY: Record<XapiOperation['xapi'], string> = {
  'x-read': 'read X with the app token',
  'user-token': 'use a connected account’s token',
  'x-oauth': 'are X’s OAuth 2.0 of a connected account',
  'own-data': 'are served by the server alone',
  refused: 'are refused',
};

/** What an operation uses of X, for the access column (which tier sells it is X's pricing page's to say). */
function xAccess(op: XapiOperation): string {
  const x = op.x ?? [];
  if (op.xapi === 'own-data' || op.xapi === 'refused') return '—';
  if (op.xapi === 'x-oauth') return 'OAuth 2.0 app';
  const parts = [op.xapi === 'user-token' ? 'user-context' : 'app-only reads'];
  if (x.includes('GET /2/tweets/search/recent')) parts.push('recent search');
  if (x.includes('GET /2/tweets/search/all')) parts.push('full-archive search (`X_API_FULL_ARCHIVE`)');
  return parts.join(', ');
}

/**
 * The operations table of `guides/xapi.md`: one row per operation of the contract (`part` picks the 127 of
 * the published reference or the ones beyond it), from `platform/xapi/operations.ts`.
 */
export function xapiOperationRows(
  part: 'reference' | 'beyond',
  ops: readonly AnyOperation[] = operations as readonly AnyOperation[],
): string {
  const table = XAPI_OPERATIONS as Record<string, XapiOperation>;
  const beyond = new Set<string>(BEYOND_REFERENCE);
  const chosen = ops.filter((op) => beyond.has(op.id) === (part === 'beyond'));
  const counts = new Map<string, number>();
  for (const op of chosen) {
    const h = table[op.id]?.xapi;
    if (!h) throw new Error(`${op.id}: no record in platform/xapi/operations.ts`);
    counts.set(h, (counts.get(h) ?? 0) + 1);
  }
  const summary = (Object.keys(HANDLING) as XapiOperation['xapi'][])
    .filter((h) => counts.has(h))
    .map((h) => `${counts.get(h)} ${SUMMARY[h]}`)
    .join('; ');
  const rows = chosen.map((op) => {
    const x = table[op.id] as XapiOperation;
    const handling = x.refusal ? `refused (\`${x.refusal}\`)` : HANDLING[x.xapi];
    const requests = (x.x ?? []).map((r) => `\`${r}\``).join(', ') || '—';
    return `| \`${op.id}\` | \`${op.method} ${op.path}\` | ${handling} | ${cell(requests)} | ${cell(xAccess(x))} | ${cell(x.note)} |`;
  });
  return [
    `Of these ${chosen.length} operations, ${summary}.`,
    '',
    '| operation | request | on xapi | X requests | X access (check X’s pricing page for the tiers) | what it does on xapi |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

const TRANSPORT: Record<string, string> = {
  XApiClient: 'own `XApiClient`',
  xdk: '`@xdevplatform/xdk`',
  fetch: 'own `fetch`',
};
const TOKEN: Record<string, string> = { app: 'app', user: 'account', client: 'OAuth client' };

/** The call-by-call table of `dev/xapi.md`: every request the platform makes to X, and how, and why. */
export function xapiCallRows(): string {
  const rows = X_CALLS.map(
    (c) =>
      `| \`${c.request}\` | ${TOKEN[c.token]} | ${TRANSPORT[c.via]} | ${c.sdk ? `\`${c.sdk}\`` : '—'} | \`${c.file}\` | ${cell(c.why)} |`,
  );
  const xdk = X_CALLS.filter((c) => c.via === 'xdk').length;
  return [
    `${X_CALLS.length} requests: ${xdk} through xdk, ${X_CALLS.length - xdk} through our own client or \`fetch\`.`,
    '',
    '| X request | token | sent through | xdk method | file | why |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** `text` with the region between `<!-- generated:name -->` and `<!-- /generated:name -->` replaced. */
export function replaceRegion(text: string, name: string, content: string): string {
  const re = new RegExp(`(<!-- generated:${name} -->\\n)[\\s\\S]*?(\\n<!-- /generated:${name} -->)`);
  if (!re.test(text)) throw new Error(`no generated:${name} region`);
  return text.replace(re, (_m, open: string, close: string) => `${open}${content}${close}`);
}

/** Every generated file: path relative to `docs/` → content. */
export async function generate(): Promise<Map<string, string>> {
  const ops = operations as readonly AnyOperation[];
  const home = mkdtempSync(join(tmpdir(), 'xsvc-docs-'));
  const files = new Map<string, string>();
  try {
    const catalog = new Map(
      (
        exploreCatalog({ limit: Number.POSITIVE_INFINITY }, { enableWrites: true })
          .operations as unknown as McpEntry[]
      ).map((e) => [e.operation, e]),
    );
    const examples = new Map(commands.map((c) => [c.op, c.example ?? c.path.join(' ')]));
    for (const op of ops) {
      const example = examples.get(op.id);
      if (!example) throw new Error(`${op.id}: no CLI command`);
      const request = await dryRun(example, home);
      files.set(`reference/${op.id}.md`, renderPage(op, request, example, catalog.get(op.id)));
    }
    files.set('reference/index.md', renderIndex(ops));
    files.set(
      'concepts/deprecations.md',
      replaceRegion(readFileSync(DEPRECATIONS_PAGE, 'utf8'), 'deprecations', deprecationRows(ops)),
    );
    let guide = readFileSync(XAPI_GUIDE, 'utf8');
    guide = replaceRegion(guide, 'xapi-operations', xapiOperationRows('reference', ops));
    guide = replaceRegion(guide, 'xapi-operations-beyond', xapiOperationRows('beyond', ops));
    files.set('guides/xapi.md', guide);
    files.set('dev/xapi.md', replaceRegion(readFileSync(XAPI_DEV, 'utf8'), 'xapi-calls', xapiCallRows()));
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  return files;
}

/**
 * A page's content without its formatting: the committed pages are formatted by Biome (padded tables,
 * wrapped code), so the staleness check compares what they say, not how it is laid out.
 */
export function content(markdown: string): string {
  return markdown
    .replace(/-{3,}/g, '---')
    .replace(/\s+/g, '')
    .replace(/,([}\])])/g, '$1');
}

/** The reference pages on disk now (for the staleness check and to remove pages of removed operations). */
export function referenceFilesOnDisk(): string[] {
  try {
    return readdirSync(REFERENCE_DIR)
      .filter((f) => f.endsWith('.md'))
      .map((f) => `reference/${f}`);
  } catch {
    return [];
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const files = await generate();
  mkdirSync(REFERENCE_DIR, { recursive: true });
  for (const stale of referenceFilesOnDisk()) if (!files.has(stale)) rmSync(join(DOCS_DIR, stale));
  for (const [path, text] of files) writeFileSync(join(DOCS_DIR, path), text);
  // Committed pages are formatted like every other file of the repository (`biome check` runs on them).
  const biome = spawnSync('pnpm', ['exec', 'biome', 'format', '--write', ...[...files.keys()]], {
    cwd: DOCS_DIR,
    stdio: 'inherit',
  });
  if (biome.status !== 0) throw new Error('biome format failed on the generated pages');
  console.log(`generated ${files.size} files in ${Math.round(performance.now() - started)} ms`);
}
