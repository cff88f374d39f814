import {
  type Answers,
  answer,
  engagement,
  linksOf,
  QUESTIONS,
  score,
  VIRAL_RULES,
  verdict,
} from '../../core/content/viral-rules.js';
import type { Tweet } from '../../core/platform/platform.js';

/** A post to analyze: a platform tweet, or a draft (`text:n`, no metrics). */
export type Post = { kind: 'tweet'; tweet: Tweet } | { kind: 'draft'; id: string; text: string };

type BaselineAnswers = Record<string, string | number | null>;

/** How a result compares with the baseline the caller sent. */
export type MonitorStatus = 'first_run' | 'new_to_baseline' | 'unchanged' | 'changed';

/** The comparison of a result's answers with those of the same post in the baseline. */
export function compare(
  answers: Answers,
  previous: BaselineAnswers | undefined,
  baselineEmpty: boolean,
): {
  status: MonitorStatus;
  changes?: { questionId: string; previous: string | number | null; current: string | number | null }[];
} {
  if (baselineEmpty) return { status: 'first_run' };
  if (!previous) return { status: 'new_to_baseline' };
  const changes = QUESTIONS.flatMap(({ id }) => {
    const [before, now] = [previous[id] ?? null, answers[id]];
    return String(before) === String(now) ? [] : [{ questionId: id, previous: before, current: now }];
  });
  return changes.length ? { status: 'changed', changes } : { status: 'unchanged' };
}

/** Host names of the links of a post (entities first, then the text), without `www.`. */
function domains(post: Post): string[] {
  const urls =
    post.kind === 'tweet'
      ? [...(post.tweet.entities?.urls ?? []).map((u) => u.expandedUrl ?? u.url), ...linksOf(post.tweet.text)]
      : linksOf(post.text);
  const hosts = urls.flatMap((u) => {
    try {
      return [new URL(u).hostname.toLowerCase().replace(/^www\./, '')];
    } catch {
      return [];
    }
  });
  return [...new Set(hosts)];
}

/** Cashtags of a post (`$NVDA`), upper-cased, once each. */
function cashtags(post: Post): string[] {
  const text = post.kind === 'tweet' ? post.tweet.text : post.text;
  const own = post.kind === 'tweet' ? (post.tweet.entities?.cashtags ?? []).map((c) => c.text) : [];
  const inText = (text.match(/\$[A-Za-z]{1,6}\b/g) ?? []).map((c) => c.slice(1));
  return [...new Set([...own, ...inText].map((c) => `$${c.toUpperCase()}`))];
}

/** One analyzed post in the API's shape (spec 4.11), with `monitor` when a baseline was sent. */
export function analyze(
  post: Post,
  baseline: { rows: Map<string, BaselineAnswers>; empty: boolean } | undefined,
) {
  const tweet = post.kind === 'tweet' ? post.tweet : { id: post.id, text: post.text };
  const answers = answer(tweet.text);
  const { score: value, stops } = score(answers);
  const measures =
    post.kind === 'tweet'
      ? engagement({
          likes: post.tweet.likeCount ?? 0,
          replies: post.tweet.replyCount ?? 0,
          reposts: post.tweet.retweetCount ?? 0,
          quotes: post.tweet.quoteCount ?? 0,
          views: post.tweet.viewCount,
          followers: post.tweet.author?.followers,
        })
      : { algorithmScore: null, algorithmBasis: null, actualEngagementRate: null };
  return {
    tweet,
    analysis: {
      status: 'completed',
      answers: QUESTIONS.map((q) => ({ questionId: q.id, type: q.type, value: answers[q.id] })),
      questions: QUESTIONS.map((q) => ({ id: q.id, type: q.type, version: '1' })),
      contextBytes: Buffer.byteLength(tweet.text, 'utf8'),
      contextAvailability: {
        postText: 'full',
        metrics: post.kind === 'tweet' ? 'full' : 'none',
        author: post.kind === 'tweet' && post.tweet.author ? 'full' : 'none',
      },
    },
    answers,
    viralScore: value,
    viralVerdict: verdict(value),
    viral: { stops, weights: VIRAL_RULES, algorithmBasis: measures.algorithmBasis },
    viralAlgorithmScore: measures.algorithmScore,
    viralActualEngagementRate: measures.actualEngagementRate,
    sourceDomains: domains(post),
    cashtags: cashtags(post),
    ...(baseline && { monitor: compare(answers, baseline.rows.get(tweet.id), baseline.empty) }),
  };
}

/** An analyzed result. */
export type Analyzed = ReturnType<typeof analyze>;
