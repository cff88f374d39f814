import type { schemas } from '@xsvc/sdk/contract';
import type { z } from 'zod';
import { answer } from '../../../core/content/viral-rules.js';
import {
  ENGAGEMENT_MULTIPLIERS,
  ENGAGEMENT_SIGNALS,
  GENERAL_PENALTIES,
  intentUrl,
  penaltiesIn,
  publishedSignal,
  RULES_SOURCE,
  SCORE_WEIGHTS,
} from './ranking.js';

type Goal = (typeof schemas.COMPOSE_GOALS)[number];

/** Penalties listed at most. */
const TOP_PENALTIES = 6;

/** What the `compose` step reads beside the request: the account's styles and the radar sources on the topic. */
export interface PrepareContext {
  savedStyles: schemas.ComposeSavedStyle[];
  /** The style named by `styleUsername`: its tweets, or null when it is not cached. */
  style?: { username: string; tweets: string[] } | null;
  radar: z.input<typeof schemas.ComposeRadarRecommendationSchema>[];
}

/** Writing rules of the ranking model, each tied to the trait of the rules it serves. */
const BASE_RULES = [
  'Open with a hook: a number, a question or a strong word (how, why, stop, new) in the first line (hook carries a quarter of the score)',
  'Keep sentences short (under 25 words on average) and the post under 280 characters (clarity carries a quarter of the score)',
  'Give the reader something: a number, a result, a how or a why (informative value)',
  'Write like a person: no stock phrases such as "delve", "game-changer" or "in today\'s fast-paced world"',
  'No spam signals: no "buy now", "DM for", several links, 5+ hashtags or strings of exclamation marks',
  'No outrage bait and no shouting in capitals: it caps the score however good the rest is',
  'Put links in the first reply, not in the post body',
];

const GOAL_RULES: Readonly<Record<Goal, string>> = {
  engagement: 'End with a question: a reply is worth 10 likes in weighted engagement',
  followers: 'Show what readers get by following: a recurring insight, a series, a promise kept',
  authority: 'Lead with evidence: your own data, a result, a concrete example',
  conversation: 'Take a clear position and ask for the other side: replies and quotes weigh 10x a like',
};

const ENGAGEMENT_VELOCITY =
  'Early engagement decides reach: replies and quotes in the first 30-60 minutes weigh most (each worth 10 likes). ' +
  'Post when your audience is online, answer every early reply, and keep the link for the first reply.';

/** Follow-up questions for what the request leaves open (asked before the `refine` step). */
function followUpQuestions(body: schemas.ComposePrepareRequest): string[] {
  const q: string[] = [];
  const topic = body.topic;
  const a = answer(topic);
  if (!body.goal) q.push('What should the post achieve: engagement, followers, authority or conversation?');
  q.push('What tone fits: casual, technical, witty, bold or another voice?');
  if (!/\d/.test(topic)) q.push(`Do you have a number or a concrete result about "${topic}" to open with?`);
  if (a.informative === 0) q.push(`What is the one thing a reader learns about "${topic}"?`);
  q.push('Will the post carry a photo or a video, or text only?');
  q.push('What should readers do after reading (reply, follow, click the link in the reply)?');
  if (!body.styleUsername) q.push('Should it sound like a cached style? Name one with styleUsername.');
  return q;
}

/** The `compose` step: rules, weights and follow-up questions for a topic. */
export function prepare(
  body: schemas.ComposePrepareRequest,
  ctx: PrepareContext,
): z.input<typeof schemas.ComposePrepareResultSchema> {
  const contentRules = [...BASE_RULES, ...(body.goal ? [GOAL_RULES[body.goal]] : [])].map((rule) => ({
    rule,
  }));
  const found = penaltiesIn(body.topic);
  const result: z.input<typeof schemas.ComposePrepareResultSchema> = {
    contentRules,
    scorerWeights: [...SCORE_WEIGHTS, ...ENGAGEMENT_SIGNALS].map(publishedSignal),
    followUpQuestions: followUpQuestions(body),
    engagementMultipliers: ENGAGEMENT_MULTIPLIERS,
    engagementVelocity: ENGAGEMENT_VELOCITY,
    intentUrl: intentUrl(body.topic),
    nextStep:
      'Answer the follow-up questions, then call compose with step "refine" and your topic, goal and tone.',
    // What the topic itself already incurs first, then the most severe penalties in general.
    topPenalties: [...new Set([...found, ...GENERAL_PENALTIES])].slice(0, TOP_PENALTIES),
    source: RULES_SOURCE,
    radarRecommendations: ctx.radar,
  };
  if (ctx.savedStyles.length) result.savedStyles = ctx.savedStyles;
  if (ctx.style) {
    result.styleTweets = ctx.style.tweets;
    result.styleNote = `Write like @${ctx.style.username}: match the length, rhythm and vocabulary of these ${ctx.style.tweets.length} tweets; keep the rules above.`;
  } else if (ctx.style === null && body.styleUsername) {
    result.styleNote = `No cached style for @${body.styleUsername.replace(/^@/, '').toLowerCase()}: analyze it first with POST /api/v1/styles.`;
  }
  return result;
}
