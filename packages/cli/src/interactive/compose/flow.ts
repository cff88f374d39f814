import { schemas } from '@xsvc/sdk/contract';

/**
 * The compose → refine → score flow as data: which input is missing, which step runs next, the request of
 * each step. Shared by the ink form (which asks for what is missing) and the non-interactive path (which
 * names the flag to pass), so both follow one rule set (spec 4.9: `compose` needs `topic`; `refine` needs
 * `goal`, `tone`, `topic`; `score` needs `draft`).
 */

/** The three steps, in order. */
export const STEPS = schemas.COMPOSE_STEPS;
export type Step = (typeof STEPS)[number];

/** What a post is written for. */
export const GOALS = schemas.COMPOSE_GOALS;
export type Goal = (typeof GOALS)[number];

/** Media planned with the post. */
export const MEDIA_TYPES = schemas.COMPOSE_MEDIA_TYPES;

/** Everything the steps can take; collected from flags, then from the form. */
export interface ComposeInputs {
  readonly topic?: string | undefined;
  readonly goal?: Goal | undefined;
  readonly styleUsername?: string | undefined;
  readonly tone?: string | undefined;
  readonly mediaType?: (typeof MEDIA_TYPES)[number] | undefined;
  readonly callToAction?: string | undefined;
  readonly additionalContext?: string | undefined;
  readonly draft?: string | undefined;
  readonly hasLink?: boolean | undefined;
  readonly hasMedia?: boolean | undefined;
}

/** The inputs a person types or picks (the others come from flags only). */
export type AskedInput = 'topic' | 'goal' | 'tone' | 'draft';

/** The answers of the steps that ran. */
export interface ComposeResults {
  readonly compose?: schemas.ComposePrepareResult;
  readonly refine?: schemas.ComposeRefineResult;
  readonly score?: schemas.ComposeScoreResult;
}

/** The flag of each asked input, for messages. */
export const FLAG_OF: Readonly<Record<AskedInput, string>> = {
  topic: '--topic',
  goal: '--goal',
  tone: '--tone',
  draft: '--draft',
};

const REQUIRED: Readonly<Record<Step, readonly AskedInput[]>> = {
  compose: ['topic'],
  refine: ['topic', 'goal', 'tone'],
  score: ['draft'],
};

/**
 * The inputs a step needs. When `eager`, the goal is asked before `compose` when `refine` follows (the
 * compose step uses it too), so a person answers the questions in a natural order.
 */
export function requiredInputs(step: Step, steps: readonly Step[], eager = false): readonly AskedInput[] {
  if (eager && step === 'compose' && steps.includes('refine')) return ['topic', 'goal'];
  return REQUIRED[step];
}

/** The first input of `step` that is still missing. */
export function missingInput(
  step: Step,
  steps: readonly Step[],
  inputs: ComposeInputs,
  eager = false,
): AskedInput | undefined {
  return requiredInputs(step, steps, eager).find((k) => {
    const v = inputs[k];
    return v === undefined || (typeof v === 'string' && v.trim() === '');
  });
}

/** What the flow does next. */
export type NextAction =
  | { readonly kind: 'ask'; readonly input: AskedInput; readonly step: Step }
  | { readonly kind: 'run'; readonly step: Step }
  | { readonly kind: 'done' };

/** The next action: the first step without a result either needs an input or can run. */
export function nextAction(
  steps: readonly Step[],
  inputs: ComposeInputs,
  results: ComposeResults,
  eager = false,
): NextAction {
  for (const step of steps) {
    if (results[step] !== undefined) continue;
    const input = missingInput(step, steps, inputs, eager);
    return input ? { kind: 'ask', input, step } : { kind: 'run', step };
  }
  return { kind: 'done' };
}

function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** The request body of a step (its required inputs must be present: see {@link missingInput}). */
export function requestFor(step: Step, i: ComposeInputs): schemas.ComposeRequest {
  switch (step) {
    case 'compose':
      return defined({ step, topic: i.topic!, goal: i.goal, styleUsername: i.styleUsername });
    case 'refine':
      return defined({
        step,
        topic: i.topic!,
        goal: i.goal!,
        tone: i.tone!,
        mediaType: i.mediaType,
        callToAction: i.callToAction,
        additionalContext: i.additionalContext,
      });
    case 'score':
      return defined({ step, draft: i.draft!, hasLink: i.hasLink ?? false, hasMedia: i.hasMedia });
  }
}
