import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Xsvc } from '@xsvc/sdk';
import type { Route } from '@xsvc/sdk/transport';
import { InputReader } from '../args/input.js';
import { UsageError } from '../errors.js';
import { createClient } from '../exec/client.js';
import { loadCredentials } from '../exec/credentials.js';
import { curlLine, KEY_VARIABLE, shownHeaders } from '../exec/dry-run.js';
import type { Output } from '../output/output.js';
import { makeOutput } from '../output/output.js';
import { findItems } from '../output/render.js';
import { startSpinner } from '../output/spinner.js';
import type { GlobalFlags } from '../program/globals.js';
import type { RunState } from '../program/run-state.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof METHODS)[number];

/** The options of `xsvc api` as commander parses them. */
export interface ApiOptions {
  readonly method?: string;
  readonly rawField?: readonly string[];
  readonly field?: readonly string[];
  readonly header?: readonly string[];
  readonly input?: string;
  readonly paginate?: boolean;
}

/** Pages followed at most by `--paginate`, so a service that never ends cannot keep the CLI forever. */
const MAX_PAGES = 1_000;

/**
 * `xsvc api [method] <path>`: any request to the service with the profile's key, as gh and stripe have it.
 * Fields go to the query of a GET or DELETE and to the JSON body otherwise; `--input` sends a JSON body
 * from a file or stdin; `--paginate` follows either cursor style and prints one page object.
 */
export async function apiRequest(
  state: RunState,
  globals: GlobalFlags,
  words: readonly string[],
  opts: ApiOptions,
): Promise<void> {
  const { io } = state;
  const out = await makeOutput(io, globals);
  const [methodWord, path] = words.length > 1 ? words : [undefined, words[0]];
  const reader = new InputReader(io);
  const params = await fieldsOf(opts, io.cwd);
  let body: Record<string, unknown> | undefined;
  if (opts.input !== undefined) {
    const parsed = await reader.json(opts.input, '--input');
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new UsageError('--input must be a JSON object', undefined, 'invalid_input', '--input');
    }
    body = { ...(parsed as Record<string, unknown>), ...params };
  }
  const method = methodOf(opts.method ?? methodWord, body !== undefined || Object.keys(params).length > 0);
  const target = pathOf(path);
  const inQuery = method === 'GET' || method === 'DELETE';
  if (inQuery && body !== undefined) {
    throw new UsageError(
      `--input sends a body, which a ${method} does not take`,
      undefined,
      'invalid_input',
      '--input',
    );
  }
  if (opts.paginate && method !== 'GET') {
    throw new UsageError('--paginate follows the pages of a GET', undefined, 'invalid_input', '--paginate');
  }
  const route: Route = {
    id: 'api',
    method,
    path: target,
    pathParams: [],
    idempotent: inQuery,
    ...(!inQuery && { body: 'json' as const }),
  };
  const sent = body ?? params;
  const headers = headersOf(opts.header ?? []);
  const creds = await loadCredentials(state, globals);
  if (globals.dryRun) {
    const { Xsvc: Client } = await import('@xsvc/sdk');
    const { transport } = new Client({ baseUrl: creds.baseUrl, apiKey: KEY_VARIABLE });
    const built = transport.build(route, sent, { headers });
    const shown = shownHeaders(
      built.headers,
      Object.keys(headers).map((h) => h.toLowerCase()),
    );
    const curl = curlLine(
      built.method,
      built.url.href,
      shown,
      route.body,
      inQuery ? undefined : built.bodyJson,
      {},
    );
    if (out.json) out.value({ method: built.method, url: built.url.href, headers: shown, curl });
    else out.line(curl);
    return;
  }
  const client = createClient(io, creds, out);
  const spinner = startSpinner(io.stderr, `${method} ${target}…`);
  try {
    const answer = opts.paginate
      ? await allPages(client, route, sent, headers, io.signal)
      : (
          await client.transport.call<unknown>(route, sent, {
            headers,
            ...(io.signal && { signal: io.signal }),
          })
        ).data;
    spinner.stop();
    print(out, answer);
  } finally {
    spinner.stop();
  }
}

/** Prints the answer: JSON (shaped by `--json <fields>` / `--jq`), or text as it came. */
function print(out: Output, answer: unknown): void {
  if (answer === undefined || answer === '') return;
  if (typeof answer === 'string' && !out.json) out.line(answer.replace(/\n$/, ''));
  else out.value(answer, findItems(answer, undefined)?.kind);
}

/** The method: given (a word or `-X`), else POST when a body is sent, else GET. */
function methodOf(given: string | undefined, hasBody: boolean): Method {
  if (given === undefined) return hasBody ? 'POST' : 'GET';
  const m = given.toUpperCase();
  if (!(METHODS as readonly string[]).includes(m)) {
    throw new UsageError(
      `"${given}" is not an HTTP method`,
      `Use one of ${METHODS.join(', ')}.`,
      'invalid_input',
      '--method',
    );
  }
  return m as Method;
}

/** A path on the service (`/api/v1/…`); a full URL would send the key to wherever it points. */
function pathOf(path: string | undefined): string {
  if (path === undefined || !path.startsWith('/')) {
    throw new UsageError(
      `the path must start with / (got "${path ?? ''}")`,
      'Name a path on the service, e.g. /api/v1/x/tweets/search; the base URL comes from the profile.',
      'invalid_input',
      '<path>',
    );
  }
  return path;
}

/**
 * The fields: `-f key=value` as text, `-F key=value` typed as gh does (true, false, null, numbers;
 * `@file` for a file's text). A key given twice becomes a list.
 */
async function fieldsOf(opts: ApiOptions, cwd: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const add = (key: string, value: unknown) => {
    const prev = out[key];
    out[key] = prev === undefined ? value : [...(Array.isArray(prev) ? prev : [prev]), value];
  };
  for (const raw of opts.rawField ?? []) {
    const [key, value] = splitField(raw, '--raw-field');
    add(key, value);
  }
  for (const raw of opts.field ?? []) {
    const [key, value] = splitField(raw, '--field');
    add(key, await typed(value, cwd));
  }
  return out;
}

function splitField(raw: string, flag: string): [string, string] {
  const at = raw.indexOf('=');
  if (at <= 0) {
    throw new UsageError(`${flag} expects key=value, got "${raw}"`, undefined, 'invalid_input', flag);
  }
  return [raw.slice(0, at), raw.slice(at + 1)];
}

async function typed(value: string, cwd: string): Promise<unknown> {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (value === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (value.startsWith('@')) {
    const file = resolve(cwd, value.slice(1));
    try {
      return (await readFile(file, 'utf8')).replace(/\n$/, '');
    } catch (err) {
      throw new UsageError(
        `--field: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
        undefined,
        'invalid_input',
        '--field',
      );
    }
  }
  return value;
}

/** `-H 'name: value'` headers; the key header cannot be replaced (the profile's key is the point). */
function headersOf(raw: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of raw) {
    const at = h.indexOf(':');
    const name = at > 0 ? h.slice(0, at).trim() : '';
    if (name === '' || /\s/.test(name)) {
      throw new UsageError(
        `--header expects "name: value", got "${h}"`,
        undefined,
        'invalid_input',
        '--header',
      );
    }
    if (['x-api-key', 'authorization'].includes(name.toLowerCase())) {
      throw new UsageError(
        `--header ${name}: the credentials come from the profile (or XSVC_API_KEY)`,
        'Use --profile, or set XSVC_API_KEY.',
        'invalid_input',
        '--header',
      );
    }
    out[name] = h.slice(at + 1).trim();
  }
  return out;
}

/** Where the next page is, in either cursor style (`hasMore`/`nextCursor`, `has_next_page`/`next_cursor`). */
function nextOf(body: unknown): { readonly param: 'after' | 'cursor'; readonly cursor: string } | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  if (b.has_next_page === true && typeof b.next_cursor === 'string' && b.next_cursor !== '') {
    return { param: 'cursor', cursor: b.next_cursor };
  }
  if (b.hasMore === true && typeof b.nextCursor === 'string' && b.nextCursor !== '') {
    return { param: 'after', cursor: b.nextCursor };
  }
  return undefined;
}

/**
 * Every page of a GET, as one page object: the first page's answer with the items of all pages (the only
 * array of the answer) and the last page's cursor fields. Stops at a repeated cursor.
 */
async function allPages(
  client: Xsvc,
  route: Route,
  params: Record<string, unknown>,
  headers: Record<string, string>,
  signal: AbortSignal | undefined,
): Promise<unknown> {
  const options = { headers, ...(signal && { signal }) };
  const first = (await client.transport.call<unknown>(route, params, options)).data;
  const kind = findItems(first, undefined)?.kind;
  if (kind === undefined) return first;
  const merged = { ...(first as Record<string, unknown>) };
  const items = [...(merged[kind] as unknown[])];
  const seen = new Set<string>();
  let page = first;
  for (let n = 1; n < MAX_PAGES; n++) {
    const next = nextOf(page);
    if (!next || seen.has(next.cursor)) break;
    seen.add(next.cursor);
    page = (await client.transport.call<unknown>(route, { ...params, [next.param]: next.cursor }, options))
      .data;
    const more = findItems(page, kind);
    if (more) items.push(...more.items);
    for (const k of ['hasMore', 'nextCursor', 'has_next_page', 'next_cursor']) {
      if (k in (page as Record<string, unknown>)) merged[k] = (page as Record<string, unknown>)[k];
    }
  }
  merged[kind] = items;
  return merged;
}
