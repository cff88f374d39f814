import { AbortError, ExtractionFailedError, type Output, type Params } from '@xsvc/sdk';
import { schemas } from '@xsvc/sdk/contract';
import type { Instance } from 'ink';
import { ExitCode } from '../exit-codes.js';
import { bodyFromFlags } from './shared/contract-flags.js';
import { type ExportTarget, resolveExportTarget, saveResponse } from './shared/export-file.js';
import { readBoolean, readChoice, readString } from './shared/options.js';
import { cwdOf, envOf, outputMode, writeJson, writeLine, writeNote } from './shared/output.js';
import { closeView, mountView } from './shared/render.js';
import { pollIntervalFromEnv } from './shared/timing.js';
import { UsageError, withUsageErrors } from './shared/usage-error.js';
import type { InteractiveCommand, InteractiveContext, RawOptions } from './types.js';
import { ExtractionProgress, type ExtractionProgressProps } from './views/extraction-progress.js';

type ExtractionRequest = Params<'createExtraction'>;
type ExtractionJob = Output<'getExtraction'>['job'];
const { EXTRACTION_TARGETS, EXTRACTION_TOOL_TYPES, ExtractionRequestSchema } = schemas;

/** Options of `xsvc extractions run`. */
export interface ExtractionRunOptions {
  /** The validated request body (tool and its parameters). */
  readonly body: ExtractionRequest;
  /** Wait for the job to finish (implied by an export). */
  readonly wait: boolean;
  readonly exportTo?: ExportTarget | undefined;
  readonly pollIntervalMs: number;
}

/** Flags whose names differ from their body field. */
const FLAG_NAMES = { toolType: '<tool>' } as const;

/**
 * Reads the raw options of `xsvc extractions run <tool> [--<param> <value>…] [--wait] [--export <file>]
 * [--format <format>]`: the tool's parameters are the body fields of the contract, validated by it, so bad
 * input fails here, before any credit is spent.
 */
export function parseExtractionOptions(
  raw: RawOptions,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): ExtractionRunOptions {
  const tool = readChoice(raw, 'tool', EXTRACTION_TOOL_TYPES, '<tool>', 'invalid_tool_type');
  if (tool === undefined) {
    throw new UsageError(
      `<tool> is required: one of ${EXTRACTION_TOOL_TYPES.join(', ')}`,
      '<tool>',
      'missing_params',
    );
  }
  const body = bodyFromFlags<ExtractionRequest>(ExtractionRequestSchema, raw, { toolType: tool }, FLAG_NAMES);
  const exportTo = resolveExportTarget(
    readString(raw, 'export'),
    readString(raw, 'format'),
    'extraction',
    cwd,
  );
  return {
    body,
    wait: (readBoolean(raw, 'wait') ?? false) || exportTo !== undefined,
    exportTo,
    pollIntervalMs: pollIntervalFromEnv(env),
  };
}

/** `@jack`, `tweet 123`, `"ai agents"`: what the job reads, for the view. */
export function describeTarget(body: ExtractionRequest): string {
  const field = EXTRACTION_TARGETS[body.toolType];
  const value = body[field];
  if (value === undefined) return '';
  if (field === 'targetUsername') return `@${value.replace(/^@/, '')}`;
  if (field === 'searchQuery') return JSON.stringify(value);
  return `${field
    .replace(/^target/, '')
    .replace(/Id$/, '')
    .toLowerCase()} ${value}`;
}

/**
 * `xsvc extractions run`: starts the job; without `--wait` prints its id. With `--wait` shows its progress
 * (an ink view on a terminal) until it completes, then exports the results through the service's export
 * operation in the chosen format, streamed to the file, and prints the path. A failed job exits 1; Ctrl-C
 * while waiting exits 130 and leaves the job running.
 */
export async function runExtraction(ctx: InteractiveContext, options: ExtractionRunOptions): Promise<number> {
  const mode = outputMode(ctx);
  const started = await ctx.client.extractions.run(options.body, { signal: ctx.signal });
  if (!options.wait) {
    if (mode === 'json')
      writeJson(ctx, { id: started.id, toolType: started.toolType, status: started.status });
    else if (mode === 'text') writeLine(ctx, started.id);
    else
      writeLine(
        ctx,
        `Started ${started.toolType} job ${started.id}. Follow it: xsvc extractions get ${started.id}`,
      );
    return ExitCode.ok;
  }
  let props: ExtractionProgressProps = {
    jobId: started.id,
    tool: started.toolType,
    target: describeTarget(options.body),
    status: started.status,
    totalResults: 0,
    polls: 0,
    color: ctx.io.color,
  };
  const instance: Instance | undefined =
    mode === 'view' ? mountView(ctx, <ExtractionProgress {...props} />) : undefined;
  const update = (next: Partial<ExtractionProgressProps>) => {
    props = { ...props, ...next };
    instance?.rerender(<ExtractionProgress {...props} />);
  };
  try {
    let job: ExtractionJob;
    try {
      job = await started.wait({
        signal: ctx.signal,
        pollIntervalMs: options.pollIntervalMs,
        timeoutMs: Number.POSITIVE_INFINITY,
        onProgress: (j) => update({ status: j.status, totalResults: j.totalResults, polls: props.polls + 1 }),
      });
    } catch (err) {
      if (err instanceof ExtractionFailedError) return failed(ctx, mode, err.job, update);
      if (err instanceof AbortError || ctx.signal.aborted) {
        update({ error: 'stopped waiting; the job keeps running' });
        writeNote(ctx, `Stopped waiting. The job keeps running: xsvc extractions get ${started.id}`);
        return ExitCode.interrupted;
      }
      throw err;
    }
    const target = options.exportTo;
    if (target === undefined) {
      if (mode === 'json') writeJson(ctx, { job });
      else if (mode === 'text') writeLine(ctx, `${job.id}\t${job.status}\t${job.totalResults}`);
      return ExitCode.ok;
    }
    update({ exporting: `${target.format} to ${target.path}` });
    const response = await started.export({ format: target.format }, { signal: ctx.signal });
    const bytes = await saveResponse(response, target.path);
    update({ exporting: undefined, exported: { path: target.path, bytes, format: target.format } });
    if (mode === 'json') writeJson(ctx, { job, export: { path: target.path, format: target.format, bytes } });
    else if (mode === 'text') writeLine(ctx, target.path);
    return ExitCode.ok;
  } finally {
    if (instance) await closeView(instance, <ExtractionProgress {...props} />);
  }
}

function failed(
  ctx: InteractiveContext,
  mode: ReturnType<typeof outputMode>,
  job: ExtractionJob,
  update: (next: Partial<ExtractionProgressProps>) => void,
): number {
  const reason = job.errorMessage ?? 'no reason given';
  update({ status: job.status, totalResults: job.totalResults, error: `failed: ${reason}` });
  if (mode === 'json') writeJson(ctx, { job });
  else writeNote(ctx, `extraction ${job.id} failed: ${reason}`);
  return ExitCode.error;
}

/** The runner the command layer loads. */
export const run: InteractiveCommand<RawOptions> = (ctx, raw) =>
  withUsageErrors(ctx, () => runExtraction(ctx, parseExtractionOptions(raw, envOf(ctx), cwdOf(ctx))));
