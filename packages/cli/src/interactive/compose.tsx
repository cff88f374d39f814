import { ExitCode } from '../exit-codes.js';
import { type StepRunner, serviceSteps } from './compose/api.js';
import {
  type ComposeInputs,
  type ComposeResults,
  FLAG_OF,
  GOALS,
  MEDIA_TYPES,
  missingInput,
  STEPS,
  type Step,
} from './compose/flow.js';
import { resultLines } from './compose/text.js';
import { readBoolean, readChoice, readString } from './shared/options.js';
import { outputMode, writeJson, writeLine } from './shared/output.js';
import { closeView, mountView } from './shared/render.js';
import { UsageError, withUsageErrors } from './shared/usage-error.js';
import type { InteractiveCommand, InteractiveContext, RawOptions } from './types.js';
import { ComposeForm, type ComposeOutcome } from './views/compose-form.js';

/** Options of `xsvc compose`. */
export interface ComposeOptions {
  /** The steps to run, in order (`--step` picks one; all three by default). */
  readonly steps: readonly Step[];
  readonly inputs: ComposeInputs;
}

const USERNAME = /^@?[A-Za-z0-9_]{1,15}$/;

/** Reads the raw options of `xsvc compose` (a flag for every input of the three steps). */
export function parseComposeOptions(raw: RawOptions): ComposeOptions {
  const step = readChoice(raw, 'step', STEPS, '--step');
  const styleUsername = readString(raw, 'styleUsername', '--style-username');
  if (styleUsername !== undefined && !USERNAME.test(styleUsername)) {
    throw new UsageError(
      '--style-username must be a username of 1-15 letters, digits or underscores',
      '--style-username',
    );
  }
  return {
    steps: step ? [step] : STEPS,
    inputs: {
      topic: readString(raw, 'topic', '--topic'),
      goal: readChoice(raw, 'goal', GOALS, '--goal'),
      styleUsername,
      tone: readString(raw, 'tone', '--tone'),
      mediaType: readChoice(raw, 'mediaType', MEDIA_TYPES, '--media-type'),
      callToAction: readString(raw, 'callToAction', '--call-to-action'),
      additionalContext: readString(raw, 'additionalContext', '--additional-context'),
      draft: readString(raw, 'draft', '--draft'),
      hasLink: readBoolean(raw, 'hasLink', '--has-link'),
      hasMedia: readBoolean(raw, 'hasMedia', '--has-media'),
    },
  };
}

/** Checks that flags cover every step (nothing is asked off a terminal); names the first flag missing. */
export function requireFlags(options: ComposeOptions, why: string): void {
  for (const step of options.steps) {
    const missing = missingInput(step, options.steps, options.inputs);
    if (missing === undefined) continue;
    const only =
      options.steps.length > 1 && step !== 'score' ? ' (or --step score to only score --draft)' : '';
    throw new UsageError(
      `${why}: pass ${FLAG_OF[missing]} for the ${step} step${only}`,
      FLAG_OF[missing],
      'missing_params',
    );
  }
}

async function runAll(options: ComposeOptions, runStep: StepRunner): Promise<ComposeResults> {
  let results: ComposeResults = {};
  for (const step of options.steps) results = { ...results, ...(await runStep(step, options.inputs)) };
  return results;
}

async function runForm(
  ctx: InteractiveContext,
  options: ComposeOptions,
  runStep: StepRunner,
): Promise<ComposeOutcome> {
  let settle!: (o: ComposeOutcome) => void;
  const ended = new Promise<ComposeOutcome>((resolve) => {
    settle = resolve;
  });
  const onAbort = () => settle({ kind: 'cancelled' });
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const instance = mountView(
    ctx,
    <ComposeForm
      steps={options.steps}
      initial={options.inputs}
      runStep={runStep}
      onEnd={settle}
      color={ctx.io.color}
    />,
  );
  try {
    return await ended;
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    await closeView(instance);
  }
}

/**
 * `xsvc compose`: the compose → refine → score flow. On a terminal, an ink form asks for what the flags did
 * not give and lets the draft be edited and scored again; with `--json` or off a terminal every input must
 * come from flags (exit 2 naming the missing one) and the answers are printed. Ctrl-C in the form exits 130.
 */
export async function compose(
  ctx: InteractiveContext,
  options: ComposeOptions,
  runStep: StepRunner = serviceSteps(ctx.client, ctx.signal),
): Promise<number> {
  const mode = outputMode(ctx);
  if (mode !== 'view') {
    requireFlags(
      options,
      ctx.json ? 'nothing is asked with --json' : 'not a terminal, so nothing can be asked',
    );
    const results = await runAll(options, runStep);
    if (mode === 'json') writeJson(ctx, results);
    else for (const line of resultLines(results)) writeLine(ctx, line);
    return ExitCode.ok;
  }
  const outcome = await runForm(ctx, options, runStep);
  if (outcome.kind === 'failed') throw outcome.error;
  return outcome.kind === 'cancelled' ? ExitCode.interrupted : ExitCode.ok;
}

/** The runner the command layer loads. */
export const run: InteractiveCommand<RawOptions> = (ctx, raw) =>
  withUsageErrors(ctx, () => compose(ctx, parseComposeOptions(raw)));
