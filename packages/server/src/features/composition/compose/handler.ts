import type { Kysely } from 'kysely';
import { num } from '../../../db/database.js';
import type { Database } from '../../../db/schema.js';
import { defineHandlers } from '../../../http/handler.js';
import { RADAR_SPAN_MS } from '../radar/seed.js';
import { findStyleRow, listStyleRows, styleKey, styleTweets } from '../styles/repository.js';
import { type PrepareContext, prepare } from './prepare.js';
import { refine } from './refine.js';
import { scoreDraft } from './score.js';

/** Radar items recommended for a topic, at most. */
const RADAR_RECOMMENDATIONS = 3;
/** Radar items scanned for the topic's words (the strongest of the last 72 hours). */
const RADAR_SCAN = 500;

/** The strongest recent radar items whose title or summary mentions a word of the topic. */
async function radarFor(
  db: Kysely<Database>,
  topic: string,
  now: number,
): Promise<Record<string, unknown>[]> {
  const words = [...new Set((topic.toLowerCase().match(/\p{L}{4,}/gu) ?? []).filter((w) => w.length >= 4))];
  if (!words.length) return [];
  const rows = await db
    .selectFrom('radar_items')
    .select(['id', 'title', 'source', 'url', 'description', 'score_centi'])
    .where('published_at', '>=', now - RADAR_SPAN_MS)
    .where('published_at', '<=', now)
    .orderBy('score_centi', 'desc')
    .orderBy('id', 'asc')
    .limit(RADAR_SCAN)
    .execute();
  return rows
    .filter((r) => {
      const text = `${r.title} ${r.description}`.toLowerCase();
      return words.some((w) => text.includes(w));
    })
    .slice(0, RADAR_RECOMMENDATIONS)
    .map((r) => ({
      id: r.id,
      title: r.title,
      source: r.source,
      url: r.url,
      score: num(r.score_centi) / 100,
    }));
}

/**
 * The compose tool (spec 4.9), free: `compose` answers the ranking model's rules, weights and questions
 * for a topic (with the account's cached styles, the named style's tweets and related radar items),
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
