import { QUESTIONS } from '../../core/content/viral-rules.js';
import type { Analyzed } from './viral-analysis.js';

/** Version of the summary layout. */
const SCHEMA_VERSION = 1;

const round2 = (n: number) => Math.round(n * 100) / 100;
const average = (values: readonly number[]) =>
  values.length ? round2(values.reduce((a, b) => a + b, 0) / values.length) : null;

/** Answer statistics by question: average, min and max of the scores, counts of the reactions. */
function questionStats(results: readonly Analyzed[]): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const { id, type } of QUESTIONS) {
    if (type === 'choice') {
      const counts: Record<string, number> = {};
      for (const r of results) counts[String(r.answers[id])] = (counts[String(r.answers[id])] ?? 0) + 1;
      out[id] = counts;
    } else {
      const values = results.map((r) => Number(r.answers[id]));
      out[id] = {
        average: average(values),
        min: values.length ? Math.min(...values) : null,
        max: values.length ? Math.max(...values) : null,
      };
    }
  }
  return out;
}

/** The per-account report and leaderboards of an account search. */
function accounts(results: readonly Analyzed[]) {
  const by = new Map<string, Analyzed[]>();
  for (const r of results) {
    const username = 'author' in r.tweet ? r.tweet.author?.username : undefined;
    if (username) by.set(username, [...(by.get(username) ?? []), r]);
  }
  const rows = [...by].map(([username, rs]) => ({
    username,
    posts: rs.length,
    averageScore: average(rs.map((r) => r.viralScore)) ?? 0,
    averageActualEngagementRate:
      average(
        rs.flatMap((r) => (r.viralActualEngagementRate === null ? [] : [r.viralActualEngagementRate])),
      ) ?? 0,
  }));
  const ranked = (key: 'averageScore' | 'averageActualEngagementRate') =>
    [...rows]
      .sort((a, b) => b[key] - a[key] || a.username.localeCompare(b.username))
      .map((row, i) => ({ username: row.username, rank: i + 1, posts: row.posts, average: row[key] }));
  return {
    accounts: rows,
    leaderboard: {
      byViralScore: ranked('averageScore'),
      byActualEngagementRate: ranked('averageActualEngagementRate'),
    },
  };
}

/** What a summary needs beside the results. */
export interface SummaryInput {
  skipped: number;
  targets: Record<string, unknown>;
  /** True for a search of an account's posts (adds `accounts` and `leaderboard`). */
  accountSearch: boolean;
  /** True when a baseline was sent (adds `monitor` counts). */
  baseline: boolean;
}

/** The totals of a viral-score call (spec 4.11 `analysisSummary`). */
export function summarize(results: readonly Analyzed[], input: SummaryInput) {
  const sum = (pick: (r: Analyzed) => number | undefined) => results.reduce((n, r) => n + (pick(r) ?? 0), 0);
  const metric = (
    key: 'likeCount' | 'replyCount' | 'retweetCount' | 'quoteCount' | 'viewCount' | 'bookmarkCount',
  ) => sum((r) => ('createdAt' in r.tweet ? r.tweet[key] : 0));
  const calibration: Record<string, number> = {
    send_it: 0,
    edit_first: 0,
    sleep_on_it: 0,
    scored: results.length,
    unscored: 0,
  };
  for (const r of results) calibration[r.viralVerdict] = (calibration[r.viralVerdict] ?? 0) + 1;
  const monitor: Record<string, number> = {};
  for (const r of results) if (r.monitor) monitor[r.monitor.status] = (monitor[r.monitor.status] ?? 0) + 1;
  return {
    schemaVersion: SCHEMA_VERSION,
    rows: { analyzed: results.length, failed: 0, skipped: input.skipped },
    engagement: {
      likes: metric('likeCount'),
      replies: metric('replyCount'),
      reposts: metric('retweetCount'),
      quotes: metric('quoteCount'),
      views: metric('viewCount'),
      bookmarks: metric('bookmarkCount'),
    },
    questions: questionStats(results),
    targets: input.targets,
    viral: {
      averageScore: average(results.map((r) => r.viralScore)),
      calibration,
      ...(input.accountSearch && accounts(results)),
    },
    ...(input.baseline && { monitor }),
  };
}
