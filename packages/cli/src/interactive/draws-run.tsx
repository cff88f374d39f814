import type { Params } from '@xsvc/sdk';
import { schemas } from '@xsvc/sdk/contract';
import { ExitCode } from '../exit-codes.js';
import { bodyFromFlags } from './shared/contract-flags.js';
import { type ExportTarget, resolveExportTarget, saveResponse } from './shared/export-file.js';
import { readChoice, readString } from './shared/options.js';
import { cwdOf, outputMode, writeJson, writeLine } from './shared/output.js';
import { closeView, mountView } from './shared/render.js';
import { UsageError, withUsageErrors } from './shared/usage-error.js';
import type { InteractiveCommand, InteractiveContext, RawOptions } from './types.js';
import { type DrawCreated, DrawResult } from './views/draw-result.js';

type DrawRequest = Params<'createDraw'>;
const { DRAW_EXPORT_TYPES, DrawRequestSchema } = schemas;

/** Options of `xsvc draws run`. */
export interface DrawRunOptions {
  /** The validated request body: the tweet URL and the eligibility filters. */
  readonly body: DrawRequest;
  readonly exportTo?: ExportTarget | undefined;
  /** What an export contains. */
  readonly exportType?: 'winners' | 'entries' | undefined;
}

/**
 * Reads the raw options of `xsvc draws run <tweet-url> [filters]`: the filters are the body fields of the
 * contract (`--winner-count`, `--must-retweet`, `--required-hashtags`…), validated by it before anything
 * is spent.
 */
export function parseDrawOptions(raw: RawOptions, cwd: string): DrawRunOptions {
  let body: DrawRequest;
  try {
    body = bodyFromFlags<DrawRequest>(DrawRequestSchema, raw, {}, { tweetUrl: '<tweet-url>' });
  } catch (err) {
    if (err instanceof UsageError && err.flag === '<tweet-url>' && err.code === 'invalid_input') {
      throw new UsageError(err.message, err.flag, 'invalid_tweet_url');
    }
    throw err;
  }
  return {
    body,
    exportTo: resolveExportTarget(readString(raw, 'export'), readString(raw, 'format'), 'draw', cwd),
    exportType: readChoice(raw, 'exportType', DRAW_EXPORT_TYPES, '--export-type'),
  };
}

function textLines(draw: DrawCreated): string[] {
  return [
    `draw\t${draw.id}`,
    `entries\t${draw.totalEntries}`,
    `valid\t${draw.validEntries}`,
    ...draw.winners.map(
      (w) => `${w.isBackup ? 'backup' : 'winner'}\t${w.position}\t${w.authorUsername}\t${w.tweetId}`,
    ),
  ];
}

/**
 * `xsvc draws run`: runs the draw on the replies of a tweet and shows the entries inspected, the valid
 * entries and the winners (then backups), as an ink view on a terminal, tab-separated lines when piped, or
 * the service's answer with `--json`. `--export` saves the winners (or `--export-type entries`) in a file.
 */
export async function runDraw(ctx: InteractiveContext, options: DrawRunOptions): Promise<number> {
  const mode = outputMode(ctx);
  const tweetUrl = options.body.tweetUrl;
  const color = ctx.io.color;
  const instance =
    mode === 'view' ? mountView(ctx, <DrawResult tweetUrl={tweetUrl} color={color} />) : undefined;
  let draw: DrawCreated | undefined;
  let exported: { path: string; bytes: number } | undefined;
  try {
    draw = await ctx.client.draws.run(options.body, { signal: ctx.signal });
    instance?.rerender(<DrawResult tweetUrl={tweetUrl} draw={draw} color={color} />);
    const target = options.exportTo;
    if (target) {
      const response = await ctx.client.draws.export(
        draw.id,
        { format: target.format, ...(options.exportType && { type: options.exportType }) },
        { signal: ctx.signal },
      );
      exported = { path: target.path, bytes: await saveResponse(response, target.path) };
    }
  } finally {
    if (instance)
      await closeView(
        instance,
        <DrawResult tweetUrl={tweetUrl} draw={draw} exported={exported} color={color} />,
      );
  }
  if (mode === 'json') writeJson(ctx, exported ? { ...draw, export: exported } : draw);
  else if (mode === 'text') for (const line of textLines(draw)) writeLine(ctx, line);
  if (mode === 'text' && exported) writeLine(ctx, `export\t${exported.path}`);
  return ExitCode.ok;
}

/** The runner the command layer loads. */
export const run: InteractiveCommand<RawOptions> = (ctx, raw) =>
  withUsageErrors(ctx, () => runDraw(ctx, parseDrawOptions(raw, cwdOf(ctx))));
