import { Page, type Xsvc } from '@xsvc/sdk';
import type { Route } from '@xsvc/sdk/transport';
import type { OptionValues } from 'commander';
import { UsageError } from '../errors.js';
import type { CliIO } from '../io.js';
import { type Column, chooseColumns } from '../output/columns.js';
import type { Output } from '../output/output.js';
import { findItems } from '../output/render.js';
import { resumeLine } from '../output/shell-quote.js';
import { startSpinner } from '../output/spinner.js';
import { renderTable } from '../output/table.js';
import type { CommandSpec } from '../table/types.js';
import { printResult } from './print-result.js';

/** `--all`, `--limit`, `--cursor` of a listing. */
export interface ListingFlags {
  readonly all: boolean;
  readonly limit: number | undefined;
  readonly cursor: string | undefined;
}

/** Reads the listing flags; a bad `--limit` is a usage error. */
export function listingFlags(opts: OptionValues): ListingFlags {
  let limit: number | undefined;
  if (opts.limit !== undefined) {
    limit = Number(opts.limit);
    if (!Number.isInteger(limit) || limit < 1) {
      throw new UsageError(
        `--limit expects a whole number of at least 1, got "${String(opts.limit)}"`,
        undefined,
        'invalid_input',
        '--limit',
      );
    }
  }
  const cursor = typeof opts.cursor === 'string' && opts.cursor !== '' ? opts.cursor : undefined;
  return { all: opts.all === true, limit, cursor };
}

/**
 * The request parameters of the first page: the cursor under the operation's own name (`after` or
 * `cursor`), and the page size sized to `--limit` when the user did not set it.
 */
export function listingParams(
  spec: CommandSpec,
  params: Record<string, unknown>,
  flags: ListingFlags,
): Record<string, unknown> {
  const out = { ...params };
  if (flags.cursor !== undefined) out[spec.pagination === 'A' ? 'after' : 'cursor'] = flags.cursor;
  const size = spec.pageSize;
  if (size && flags.limit !== undefined && out[size.key] === undefined) {
    out[size.key] = Math.min(size.max, Math.max(size.min, flags.limit));
  }
  return out;
}

/** Where a listing stopped early, to resume from. */
interface Stop {
  readonly cursor: string | undefined;
  /** Items of that page already printed (the page was cut by `--limit`). */
  readonly shown: number;
}

/**
 * Runs a listing. Without `--all` or `--limit`: one page, printed whole. Otherwise pages are fetched until
 * the end or the limit, items streamed (tab-separated rows when piped, one table at the end on a
 * terminal; with `--json` the page object, as without those flags), progress on stderr. Stopping early
 * prints how to resume on stderr.
 */
export async function runListing(
  client: Xsvc,
  route: Route,
  spec: CommandSpec,
  params: Record<string, unknown>,
  flags: ListingFlags,
  ctx: { readonly io: CliIO; readonly out: Output; readonly argv: readonly string[] },
): Promise<void> {
  const { io, out } = ctx;
  const options = io.signal ? { signal: io.signal } : {};
  const spinner = startSpinner(io.stderr, `${spec.path.join(' ')}…`);
  let first: Page<unknown>;
  try {
    const res = await client.transport.call<unknown>(route, params, options);
    first = new Page(client.transport, route, params, options, res.data, flags.cursor);
  } finally {
    spinner.stop();
  }
  if (!flags.all && flags.limit === undefined) {
    printResult(out, first.body, spec.items);
    if (first.nextCursor !== undefined) printStop(out, ctx.argv, { cursor: first.nextCursor, shown: 0 });
    return;
  }
  const sink = new ItemSink(out, spec.items);
  const progress = startSpinner(io.stderr, 'Fetched 0 items…');
  const seen = new Set<string>();
  let count = 0;
  let stop: Stop | undefined;
  let complete = false;
  try {
    for await (const page of first.pages()) {
      const fresh = page.items.filter((item) => firstTime(seen, item));
      const take = flags.limit === undefined ? fresh.length : Math.min(fresh.length, flags.limit - count);
      sink.add(fresh.slice(0, take));
      count += take;
      progress.update(`Fetched ${count} items…`);
      if (flags.limit !== undefined && count >= flags.limit) {
        if (take < fresh.length) stop = { cursor: page.cursor, shown: take };
        else if (page.nextCursor !== undefined) stop = { cursor: page.nextCursor, shown: 0 };
        break;
      }
    }
    complete = true;
  } finally {
    progress.stop();
    sink.end(complete);
  }
  if (out.json && complete) out.value(pageOf(first.body, spec, sink.held, stop), spec.items);
  if (stop) printStop(out, ctx.argv, stop);
}

/**
 * With `--json`, what `--all` or `--limit` print: the first page's answer (one shape per command, the
 * same as without those flags) with every item fetched, and its cursor fields saying where it stopped.
 */
function pageOf(
  body: unknown,
  spec: CommandSpec,
  items: readonly unknown[],
  stop: Stop | undefined,
): unknown {
  const base = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const key = spec.items ?? findItems(body, undefined)?.kind ?? 'items';
  const cursor = stop?.cursor ?? null;
  const more = stop !== undefined;
  const position =
    spec.pagination === 'B'
      ? { next_cursor: cursor, has_next_page: more }
      : { nextCursor: cursor, hasMore: more };
  return { ...base, [key]: items, ...position };
}

/** True the first time an item's id is seen (a cursor restart may repeat items); items without id pass. */
function firstTime(seen: Set<string>, item: unknown): boolean {
  const id = item && typeof item === 'object' ? (item as Record<string, unknown>).id : undefined;
  if (typeof id !== 'string' && typeof id !== 'number') return true;
  const key = String(id);
  if (seen.has(key)) return false;
  seen.add(key);
  return true;
}

/**
 * How to go on after stopping early, on stderr and only on a terminal (JSON with `--json`); piped, the page
 * object (`--json`) carries the cursor, and nothing is added to stderr.
 */
function printStop(out: Output, argv: readonly string[], stop: Stop): void {
  if (stop.cursor === undefined) {
    const hint = 'More results: the first page was cut by --limit; run again with a larger --limit.';
    if (out.json) out.hint(JSON.stringify({ more: true, hint }));
    else out.hint(out.errStyle.dim(hint));
    return;
  }
  const resume = resumeLine(argv, stop.cursor);
  const repeats = stop.shown > 0 ? ` (it repeats the ${stop.shown} items already shown of that page)` : '';
  if (out.json)
    out.hint(
      JSON.stringify({ next_cursor: stop.cursor, resume, ...(stop.shown > 0 && { repeats: stop.shown }) }),
    );
  else out.hint(out.errStyle.dim(`More results: resume with\n  ${resume}${repeats}`));
}

/**
 * Prints streamed items: tab-separated rows, or one table at the end on a terminal; with `--json` it only
 * holds them, for the one page object printed at the end.
 */
class ItemSink {
  readonly held: unknown[] = [];
  private columns: Column[] | undefined;
  private total = 0;

  constructor(
    private readonly out: Output,
    private readonly kind: string | undefined,
  ) {}

  add(items: readonly unknown[]): void {
    this.total += items.length;
    if (this.out.json || this.out.layout.tty) {
      this.held.push(...items);
    } else if (items.length > 0) {
      this.columns ??= chooseColumns(items, this.kind);
      for (const line of renderTable(items, this.columns, this.out.layout)) this.out.line(line);
    }
  }

  /** Prints what is held; `complete` false when the listing failed midway (no "No results." then). */
  end(complete: boolean): void {
    if (complete && this.total === 0 && !this.out.json) this.out.hint(this.out.errStyle.dim('No results.'));
    if (this.held.length === 0 || this.out.json) return;
    const found = findItems(this.held, this.kind) ?? { kind: this.kind, items: this.held };
    for (const line of renderTable(found.items, chooseColumns(found.items, this.kind), this.out.layout)) {
      this.out.line(line);
    }
  }
}
