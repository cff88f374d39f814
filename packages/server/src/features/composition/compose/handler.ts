import type { schemas } from '@xsvc/sdk/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { num } from '../../../core/db/database.js';
import type { Database } from '../../../core/db/schema.js';
import { defineHandlers } from '../../../core/http/handler.js';
import { RADAR_SPAN_MS } from '../radar/seed.js';
import type { RadarSource } from '../radar/sources.js';
import { findStyleRow, listStyleRows, styleKey, styleTweets } from '../styles/repository.js';
import { type PrepareContext, prepare } from './prepare.js';
import { refine } from './refine.js';
import { scoreDraft } from './score.js';

/** Radar sources recommended for a topic, at most. */
const RADAR_RECOMMENDATIONS = 3;
/** Radar items scanned for the topic's words (the strongest of the last 72 hours). */
const RADAR_SCAN = 500;

/** What each radar source is good for in a post. */
const RADAR_USE_FOR: Readonly<Record<RadarSource, string>> = {
  github: 'developer audiences: name a fast-rising open source project and what it does',
  google_trends: 'timing: ride a search term while interest in it peaks',
  hacker_news: 'tech and startup audiences: join a discussion while it is on the front page',
  polymarket: 'a hook with numbers: what the market gives the odds of',
  reddit: 'community sentiment: the questions and complaints people raise in discussions',
  trustmrr: 'founder audiences: concrete revenue and growth figures of real businesses',
  wikipedia: 'background and facts: what many people are reading about right now',
};

/**
 * The radar sources whose strongest recent items (title or summary) mention a word of the topic, best
 * match first (reference shapes 2.1 `RadarRecommendation`); empty when nothing matches.
 */
async function radarFor(
  db: Kysely<Database>,
  topic: string,
  now: number,
): Promise<z.input<typeof schemas.ComposeRadarRecommendationSchema>[]> {
  const words = [...new Set((topic.toLowerCase().match(/\p{L}{4,}/gu) ?? []).filter((w) => w.length >= 4))];
  if (!words.length) return [];
  const rows = await db
    .selectFrom('radar_items')
    .select(['id', 'title', 'source', 'description'])
    .where('published_at', '>=', now - RADAR_SPAN_MS)
    .where('published_at', '<=', now)
    .orderBy('score_centi', 'desc')
    .orderBy('id', 'asc')
    .limit(RADAR_SCAN)
    .execute();
  const bySource = new Map<RadarSource, string[]>();
  for (const r of rows) {
    const text = `${r.title} ${r.description}`.toLowerCase();
    if (!words.some((w) => text.includes(w))) continue;
    const source = r.source as RadarSource;
    bySource.set(source, [...(bySource.get(source) ?? []), r.title]);
  }
  return [...bySource.entries()].slice(0, RADAR_RECOMMENDATIONS).map(([source, titles]) => ({
    source,
    endpoint: `/api/v1/radar?source=${source}&hours=72`,
    guidance: `${titles.length} item${titles.length === 1 ? '' : 's'} of the last 72 hours mention the topic; the strongest: "${titles[0]}". Read them for a current angle before writing.`,
    useFor: RADAR_USE_FOR[source],
  }));
}

/**
 * The compose tool (spec 4.9), free: `compose` answers the ranking model's rules, weights and questions
 * for a topic (with the account's cached styles, the named style's tweets and the radar sources on the topic),
 * `refine` guidance for a topic, goal and tone, `score` the checklist of a draft. Every answer is computed
 * from the viral-score rules, so `score` agrees with the viral-score analysis of the same text.
 */
export const composeHandlers = defineHandlers({
  compose: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const body = ctx.body;
    if (body.step === 'refine') return refine(body);
    if (body.step === 'score') return scoreDraft(body);
    const db = ctx.services.database.db;
    const [rows, radar] = await Promise.all([
      listStyleRows(db, accountId),
      radarFor(db, body.topic, ctx.services.clock.now()),
    ]);
    const context: PrepareContext = {
      savedStyles: rows.map((r) => ({ username: r.username_lower, tweetCount: num(r.tweet_count) })),
      radar,
    };
    if (body.styleUsername) {
      const key = styleKey(body.styleUsername);
      const row = await findStyleRow(db, accountId, key);
      context.style =
        row && row.username_lower === key
          ? { username: key, tweets: styleTweets(row).map((t) => t.text) }
          : null;
    }
    return prepare(body, context);
  },
});
