import { schemas } from '@xsvc/sdk/contract';
import { type Answers, answer, linksOf, score, VIRAL_RULES } from '../../../core/content/viral-rules.js';

/**
 * The ranking model the compose tool explains, derived from the viral-score rules of the reads
 * (`reads/viral-rules.ts`) by evaluating them, never restated: the weights, caps and multipliers answered
 * here are what the viral-score analysis computes, so advice and analysis cannot drift apart.
 */

/** Where the rules come from (`source` of the compose step). */
export const RULES_SOURCE = `xsvc ranking rules ${VIRAL_RULES}: the rules of the viral-score analysis (POST /api/v1/x/analysis/viral-score)`;

/** Answers that score only the two "not machine-written" and "not spam" points. */
const BASE: Answers = {
  hook: 0,
  clarity: 0,
  informative: 0,
  funny: 0,
  ragebait: 0,
  ai_written: 0,
  spam: 0,
  reaction: 'ignore',
};
const base = score(BASE).score;
const gain = (a: Partial<Answers>) => score({ ...BASE, ...a }).score - base;

/** A ranking signal and its weight (points of the 0-100 viral score). */
export interface Signal {
  context: string;
  signal: string;
  weight: number;
}

/**
 * A signal as the compose step answers it (reference shapes 2.1): `weight` is always null (the production
 * weight is unpublished), so the context carries the direction and this model's points instead.
 */
export function publishedSignal(s: Signal): { context: string; signal: string; weight: null } {
  const points = Number.isInteger(s.weight) ? String(s.weight) : s.weight.toFixed(1);
  return {
    context: `${s.context}: ${s.weight >= 0 ? 'raises' : 'lowers'} it (${s.weight >= 0 ? '+' : ''}${points} in this model)`,
    signal: s.signal,
    weight: null,
  };
}

/** The points each trait carries in the viral score, at its best value. */
export const SCORE_WEIGHTS: readonly Signal[] = [
  { context: 'viral score (points of 100)', signal: 'hook of the opening line', weight: gain({ hook: 2 }) },
  { context: 'viral score (points of 100)', signal: 'clarity', weight: gain({ clarity: 2 }) },
  { context: 'viral score (points of 100)', signal: 'informative value', weight: gain({ informative: 2 }) },
  {
    context: 'viral score (points of 100)',
    signal: 'expected reaction: share',
    weight: gain({ reaction: 'share' }),
  },
  {
    context: 'viral score (points of 100)',
    signal: 'expected reaction: reply',
    weight: gain({ reaction: 'reply' }),
  },
  { context: 'viral score (points of 100)', signal: 'humour', weight: gain({ funny: 2 }) },
  {
    context: 'viral score (points of 100)',
    signal: 'reads as written by a person',
    weight: -gain({ ai_written: 1 }),
  },
  { context: 'viral score (points of 100)', signal: 'no spam signals', weight: -gain({ spam: 0.4 }) / 0.4 },
];

/** Weighted engagement of the analysis: what each action counts (spec 4.11). */
export const ENGAGEMENT_WEIGHTS = { like: 0.5, reply: 5, repost: 1, quote: 5 } as const;

/** The engagement weights as ranking signals. */
export const ENGAGEMENT_SIGNALS: readonly Signal[] = Object.entries(ENGAGEMENT_WEIGHTS).map(
  ([action, weight]) => ({
    context: 'weighted engagement (per action)',
    signal: action,
    weight,
  }),
);

/**
 * The engagement actions with the platform's multiplier, which is unpublished: the reference fixes the
 * sentence answered instead of a number. This model's own weights travel in the `context` of the
 * `scorerWeights` entries (`ENGAGEMENT_SIGNALS`).
 */
export const ENGAGEMENT_MULTIPLIERS = Object.keys(ENGAGEMENT_WEIGHTS).map((action) => ({
  action,
  multiplier: schemas.UNPUBLISHED_MULTIPLIER,
}));

/** A hard stop: the trait that triggers it and the score it caps (found by evaluating the rules). */
export interface HardStop {
  name: string;
  trait: 'spam' | 'ragebait' | 'ai_written';
  cap: number;
  label: string;
}

const PERFECT: Answers = { ...BASE, hook: 2, clarity: 2, informative: 2, funny: 2, reaction: 'share' };
const capOf = (trait: HardStop['trait']) => score({ ...PERFECT, [trait]: 1 }).score;

/** The hard stops of the rules, most severe first. */
export const HARD_STOPS: readonly HardStop[] = [
  { name: 'spam', trait: 'spam' as const, cap: capOf('spam'), label: 'likely spam' },
  { name: 'ragebait', trait: 'ragebait' as const, cap: capOf('ragebait'), label: 'rage bait' },
  {
    name: 'generic_copy',
    trait: 'ai_written' as const,
    cap: capOf('ai_written'),
    label: 'generic machine copy',
  },
].sort((a, b) => a.cap - b.cap);

/** A penalty as told to a writer. */
export function stopPenalty(stop: HardStop): string {
  return `${stop.label[0]?.toUpperCase()}${stop.label.slice(1)} caps the viral score at ${stop.cap}/100`;
}

/** Penalties to avoid in general, most severe first. */
export const GENERAL_PENALTIES: readonly string[] = [
  ...HARD_STOPS.map(stopPenalty),
  'Links in the post body send readers away; put the link in the first reply',
  'More than 3 hashtags and mentions clutter the post and cost clarity',
];

/** The penalties a text actually incurs under the rules, most severe first. */
export function penaltiesIn(text: string, hasLink = false): string[] {
  const a = answer(text);
  const out = HARD_STOPS.filter((s) => a[s.trait] >= 0.5).map(stopPenalty);
  if (hasLink || linksOf(text).length > 0)
    out.push('The link in the post body sends readers away; put it in the first reply');
  if ((text.match(/[#@]\w+/g) ?? []).length > 3) out.push('More than 3 hashtags and mentions cost clarity');
  if (a.clarity < 2) out.push('Long sentences, shouting or clutter cost clarity');
  if (a.hook === 0) out.push('The opening line does not hook: no number, question or strong word');
  return out;
}

/** The link that opens the platform's composer with `text` filled in. */
export function intentUrl(text: string): string {
  return `https://x.com/intent/post?text=${encodeURIComponent(text)}`;
}
