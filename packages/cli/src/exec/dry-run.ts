import { Xsvc } from '@xsvc/sdk';
import type { Route } from '@xsvc/sdk/transport';
import { redactParams } from '../args/secrets.js';
import type { Credentials } from '../config/resolve.js';
import type { Output } from '../output/output.js';
import { shellQuote } from '../output/shell-quote.js';
import type { CommandSpec } from '../table/types.js';
import { jsLiteral } from './js-literal.js';

/** Stands for the key in what a dry run prints: the shell expands it, the key itself is never shown. */
export const KEY_VARIABLE = '$XSVC_API_KEY';
/** Headers worth showing; the rest (accept, client id) add noise. */
const SHOWN_HEADERS = new Set(['x-api-key', 'content-type', 'idempotency-key', 'svc-api-contract']);

/** What a dry run prints, also its `--json` shape. */
export interface DryRun {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body?: unknown;
  readonly curl: string;
  readonly sdk: string;
}

/**
 * The request a command would send, as a `curl` line and as SDK code, with the key as `$XSVC_API_KEY`
 * and every secret parameter (a password) as `***`.
 */
export function describeRequest(
  spec: CommandSpec,
  route: Route,
  given: Record<string, unknown>,
  files: Readonly<Record<string, string>>,
  creds: Credentials,
  options: { readonly all: boolean; readonly idempotencyKey?: string | undefined },
): DryRun {
  const params = redactParams(spec, given);
  const { transport } = new Xsvc({ baseUrl: creds.baseUrl, ...(spec.auth && { apiKey: KEY_VARIABLE }) });
  const built = transport.build(
    route,
    params,
    options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {},
  );
  const headers = shownHeaders(built.headers);
  const body = built.bodyJson && Object.keys(built.bodyJson).length > 0 ? built.bodyJson : undefined;
  const curl = curlLine(built.method, built.url.href, headers, spec.body, body, files);
  return {
    method: built.method,
    url: built.url.href,
    headers,
    ...(body !== undefined && { body: withFileNames(body as Record<string, unknown>, files) }),
    curl,
    sdk: sdkCode(spec, params, files, creds.baseUrl, options.all),
  };
}

/** Prints a dry run: the curl line, then the SDK code (or both as JSON). */
export function printDryRun(out: Output, dry: DryRun): void {
  if (out.json) {
    out.value(dry);
    return;
  }
  out.line(out.layout.style.dim('# curl'));
  out.line(dry.curl);
  out.line('');
  out.line(out.layout.style.dim('# TypeScript (@xsvc/sdk)'));
  out.line(dry.sdk);
}

/** The headers of a request worth showing in a dry run (the key, the body's type, idempotency). */
export function shownHeaders(
  all: Readonly<Record<string, string>>,
  extra: readonly string[] = [],
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(all)) {
    if (SHOWN_HEADERS.has(k.toLowerCase()) || extra.includes(k.toLowerCase())) headers[k] = v;
  }
  return headers;
}

function withFileNames(
  body: Record<string, unknown>,
  files: Readonly<Record<string, string>>,
): Record<string, unknown> {
  const out = { ...body };
  for (const [k, path] of Object.entries(files)) out[k] = `@${path}`;
  return out;
}

/** A request as a `curl` command line (the key as `$XSVC_API_KEY`, files as `-F name=@path`). */
export function curlLine(
  method: string,
  url: string,
  headers: Record<string, string>,
  encoding: CommandSpec['body'],
  body: unknown,
  files: Readonly<Record<string, string>>,
): string {
  const parts = [method === 'GET' ? 'curl' : `curl -X ${method}`, shellQuote(url)];
  for (const [k, v] of Object.entries(headers)) {
    if (encoding === 'multipart' && k.toLowerCase() === 'content-type') continue;
    parts.push('-H', v === KEY_VARIABLE ? `"${k}: ${KEY_VARIABLE}"` : shellQuote(`${k}: ${v}`));
  }
  if (body !== undefined) {
    const fields = body as Record<string, unknown>;
    if (encoding === 'multipart') {
      for (const [k, v] of Object.entries(fields)) {
        const value =
          files[k] !== undefined ? `@${files[k]}` : typeof v === 'object' ? JSON.stringify(v) : String(v);
        parts.push('-F', shellQuote(`${k}=${value}`));
      }
    } else if (encoding === 'form') {
      parts.push(
        '--data',
        shellQuote(new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])).toString()),
      );
    } else {
      parts.push('--data', shellQuote(JSON.stringify(body)));
    }
  }
  return parts.join(' ');
}

function sdkCode(
  spec: CommandSpec,
  params: Record<string, unknown>,
  files: Readonly<Record<string, string>>,
  baseUrl: string,
  all: boolean,
): string {
  const pathKeys = [...spec.route.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const rest = Object.fromEntries(Object.entries(params).filter(([k]) => !pathKeys.includes(k)));
  const args = [
    ...pathKeys.map((k) => jsLiteral(String(params[k] ?? ''))),
    ...(Object.keys(rest).length > 0 ? [jsLiteral(rest, files)] : []),
  ];
  const call = `xsvc.${spec.sdk.join('.')}(${args.join(', ')})`;
  const imports = ["import { Xsvc } from '@xsvc/sdk';"];
  if (Object.keys(files).length > 0) imports.push("import { openAsBlob } from 'node:fs';");
  const auth = spec.auth ? 'apiKey: process.env.XSVC_API_KEY, ' : '';
  const lines = [...imports, '', `const xsvc = new Xsvc({ ${auth}baseUrl: ${jsLiteral(baseUrl)} });`];
  if (spec.pagination && all) lines.push(`for await (const item of ${call}) console.log(item);`);
  else if (spec.pagination)
    lines.push(`const page = await ${call};`, 'console.log(page.items, page.nextCursor);');
  else if (spec.write) lines.push(`const action = await ${call};`, 'console.log(await action.wait());');
  else if (spec.response === 'binary')
    lines.push(
      `const response = await ${call};`,
      "console.log(response.headers.get('content-type')); // response.body streams the file",
    );
  else lines.push(`const result = await ${call};`, 'console.log(result);');
  return lines.join('\n');
}
