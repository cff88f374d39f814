import type { schemas } from '@xsvc/sdk/contract';
import { type Answers, answer, linksOf, score, verdict } from '../../../core/content/viral-rules.js';
import { HARD_STOPS, intentUrl } from './ranking.js';

/** Characters of a standard post. */
const POST_CHARS = 280;

/** One check of the score step: what it looks at, whether the draft passes, how to fix it. */
interface Check {
  factor: string;
  passed: (a: Answers, d: { text: string; hasLink: boolean }) => boolean;
  suggestion: string;
}

const stopCap = (trait: string) => HARD_STOPS.find((s) => s.trait === trait)?.cap ?? 0;

/**
 * The nine checks, in the order their fixes matter most: the hard stops of the viral-score rules first
 * (each caps the score), then hook and clarity (half the score), then the rest. Each reads the same
 * answers the viral-score analysis gives the text.
 */
const CHECKS: readonly Check[] = [
  {
    factor: 'No spam signals',
    passed: (a) => a.spam < 0.5,
    suggestion: `Remove sales phrases, extra links, piles of hashtags and exclamation marks: likely spam caps the score at ${stopCap('spam')}.`,
  },
  {
    factor: 'No rage bait',
    passed: (a) => a.ragebait < 0.5,
    suggestion: `Drop the outrage words and the capitals: rage bait caps the score at ${stopCap('ragebait')}.`,
  },
  {
    factor: 'Reads as written by a person',
    passed: (a) => a.ai_written < 0.5,
    suggestion: `Replace stock phrases (delve, game-changer, unlock, seamless) with your own words: generic copy caps the score at ${stopCap('ai_written')}.`,
  },
  {
    factor: 'Hook in the opening line',
    passed: (a) => a.hook === 2,
    suggestion:
      'Rewrite the first line: 8-100 characters with a number, a question or a strong word (how, why, stop, new).',
  },
  {
    factor: 'Clarity',
    passed: (a) => a.clarity === 2,
    suggestion: 'Shorten the sentences, stop shouting, and keep hashtags, mentions and links to a few.',
  },
  {
    factor: 'Gives the reader something',
    passed: (a) => a.informative >= 1 || a.funny >= 1,
    suggestion: 'Add a number, a result, a how or a why, or make it funny.',
  },
  {
    factor: 'Invites a reaction',
    passed: (a) => a.reaction === 'share' || a.reaction === 'reply' || a.reaction === 'like',
    suggestion: 'Give readers a reason to react: ask a question or make the insight worth sharing.',
  },
  {
    factor: `Fits in one post (${POST_CHARS} characters)`,
    passed: (_a, d) => [...d.text].length <= POST_CHARS,
    suggestion: `Cut the draft to ${POST_CHARS} characters, or split it into a thread.`,
  },
  {
    factor: 'No link in the post body',
    passed: (_a, d) => !d.hasLink && linksOf(d.text).length === 0,
    suggestion: 'Move the link to the first reply: links in the body send readers away.',
  },
];

/** The `score` step: the draft checked against the ranking rules, with the viral score they give it. */
export function scoreDraft(body: {
  draft: string;
  hasLink?: boolean | undefined;
  hasMedia?: boolean | undefined;
}): schemas.ComposeScoreResult {
  const a = answer(body.draft);
  const viral = score(a);
  const d = { text: body.draft, hasLink: body.hasLink ?? false };
  const checklist: schemas.ComposeScoreCheck[] = CHECKS.map((c) =>
    c.passed(a, d)
      ? { factor: c.factor, passed: true }
      : { factor: c.factor, passed: false, suggestion: c.suggestion },
  );
  const failed = checklist.filter((c) => !c.passed);
  const passed = failed.length === 0;
  const scoreLine = `Viral score ${viral.score}/100 (${verdict(viral.score)})`;
  const topSuggestion =
    failed[0]?.suggestion ??
    (body.hasMedia === false
      ? 'Every check passes; a photo or a short video usually lifts engagement further.'
      : 'Every check passes: post it and answer the first replies quickly.');
  return {
    totalChecks: checklist.length,
    passedCount: checklist.length - failed.length,
    passed,
    topSuggestion,
    checklist,
    nextStep: passed
      ? `${scoreLine}. Open intentUrl to post it, then reply to early responses.`
      : `${scoreLine}. Fix the ${failed.length} failed check${failed.length === 1 ? '' : 's'}, then score the draft again.`,
    ...(passed && { intentUrl: intentUrl(body.draft) }),
  };
}
