/**
 * The viral-score rules (spec 4.11), deterministic: the same text and metrics always give the same answers
 * and score. Version name: {@link VIRAL_RULES}.
 *
 * Answers, read from the text:
 * - `hook` 0-2, from four signals of the opening line: a readable length (8-100 characters), a number, a
 *   closing `?`, `!`, `:` or attention emoji, and a hook word (how, why, stop, never, new, breaking, ...).
 *   Three or more signals give 2, two give 1.
 * - `clarity` 0-2: starts at 2, minus 1 each for long sentences (over 25 words on average), clutter (more
 *   than 3 hashtags and mentions), more than 2 links, under 3 words, shouting (over 30% capitalised words).
 * - `informative` 0-2, from numbers, links, explanatory words (how, why, because, guide, data, study, ...)
 *   and length over 120 characters: three or more signals give 2, one or two give 1.
 * - `funny` 0-2: laughter markers (lol, haha, 😂, joke, ...), one gives 1, two or more give 2.
 * - `ragebait` 0-1: 0.25 per outrage word, +0.3 when shouting, +0.2 for 3+ exclamation marks.
 * - `ai_written` 0-1: 0.3 per stock machine phrase (delve, game-changer, in today's fast-paced, ...),
 *   +0.15 for 2+ em dashes.
 * - `spam` 0-1: 0.3 per spam phrase (buy now, cheap, dm for, promo, ...), +0.2 for 2+ links, +0.2 for 5+
 *   hashtags, +0.1 for 3+ exclamation marks.
 * - `reaction`: `ignore` for likely spam, `argue` for likely ragebait, `reply` for a question, `share` for
 *   very informative or strongly hooked clear posts, `like` for funny or very clear ones, else `ignore`.
 *
 * Score 0-100: hook and clarity carry half (25 points each at 2), informative 15, funny 10, the reaction up
 * to 15 (share 15, reply 12, like 9, argue 4, ignore 0), and 5 each for not reading as machine-written and
 * not as spam (scaled by 1 - probability). Hard stops then cap it: likely spam (spam >= 0.5) at 15,
 * ragebait (>= 0.5) at 35, generic machine copy (ai_written >= 0.5) at 55; the stops applied are listed.
 * Verdict: `send_it` 70-100, `edit_first` 40-69, `sleep_on_it` 0-39.
 *
 * Engagement (spec 4.11): weighted = 0.5 likes + 5 replies + 1 repost + 5 quotes;
 * `viralAlgorithmScore` = weighted / views * 1000, or per follower without a view count;
 * `viralActualEngagementRate` = log10(1 + weighted per 1,000 followers). Both null for drafts.
 */

/** Version name of these rules, answered as `viral.weights`. */
export const VIRAL_RULES = 'xsvc-viral-2026-05';

/** The reader reaction a post most likely gets. */
export type Reaction = 'share' | 'reply' | 'like' | 'argue' | 'ignore';

/** The eight answers of a post. */
export interface Answers {
  hook: number;
  clarity: number;
  informative: number;
  funny: number;
  ragebait: number;
  ai_written: number;
  spam: number;
  reaction: Reaction;
}

/** The questions, in answer order, with the kind of value each answers. */
export const QUESTIONS = [
  { id: 'hook', type: 'score' },
  { id: 'clarity', type: 'score' },
  { id: 'informative', type: 'score' },
  { id: 'funny', type: 'score' },
  { id: 'ragebait', type: 'probability' },
  { id: 'ai_written', type: 'probability' },
  { id: 'spam', type: 'probability' },
  { id: 'reaction', type: 'choice' },
] as const satisfies readonly { id: keyof Answers; type: string }[];

const HOOK_WORDS = [
  'how',
  'why',
  'what',
  'stop',
  'never',
  'nobody',
  'secret',
  'breaking',
  'new',
  'finally',
  'introducing',
  'announcing',
  'just',
  'you',
];
const EXPLAIN_WORDS = [
  'how',
  'why',
  'because',
  'learn',
  'guide',
  'thread',
  'tip',
  'tips',
  'data',
  'study',
  'research',
  'report',
  'explained',
  'confirm',
  'confirms',
  'results',
];
const LAUGHS = ['lol', 'lmao', 'haha', 'hahaha', 'rofl', 'joke', 'funny', 'meme', '😂', '🤣', '😹', '💀'];
const OUTRAGE = [
  'disgusting',
  'outrage',
  'outrageous',
  'idiot',
  'idiots',
  'stupid',
  'destroy',
  'destroyed',
  'hate',
  'worst',
  'shame',
  'shameful',
  'pathetic',
  'traitor',
  'evil',
  'liar',
  'liars',
  'disgrace',
  'wake up',
];
const MACHINE = [
  'delve',
  "in today's",
  'fast-paced',
  'game-changer',
  'game changer',
  'unlock',
  'unleash',
  'leverage',
  'elevate',
  'seamless',
  "it's important to note",
  'in conclusion',
  'tapestry',
  'navigate the',
  'ever-evolving',
  'embark',
  'revolutionize',
  'harness',
  'cutting-edge',
  "let's dive",
  'dive in',
];
const SPAM = [
  'buy now',
  'buy followers',
  'cheap',
  'dm for',
  'dm me for',
  'promo',
  'discount code',
  'free followers',
  'click here',
  'limited offer',
  'act now',
  '100% free',
  'earn money',
  'make money fast',
  'guaranteed',
];

const round2 = (n: number) => Math.round(n * 100) / 100;
const clamp01 = (n: number) => round2(Math.min(1, Math.max(0, n)));
const level = (signals: number, two: number, one: number) => (signals >= two ? 2 : signals >= one ? 1 : 0);

/** How often the phrases occur in the text (whole words for single words). */
function occurrences(lower: string, words: ReadonlySet<string>, phrases: readonly string[]): number {
  return phrases.reduce(
    (n, p) => n + (p.includes(' ') || !/^\w+$/.test(p) ? (lower.includes(p) ? 1 : 0) : words.has(p) ? 1 : 0),
    0,
  );
}

/** The links of a text. */
export function linksOf(text: string): string[] {
  return text.match(/https?:\/\/[^\s)]+/g) ?? [];
}

/** The answers for a post's text (see the rules above). */
export function answer(text: string): Answers {
  const lower = text.toLowerCase();
  const tokens = text.match(/[\p{L}\p{N}'’]+/gu) ?? [];
  const words = new Set(tokens.map((w) => w.toLowerCase()));
  const opening = (text.split('\n').find((l) => l.trim() !== '') ?? '').trim();
  const openingWords = new Set((opening.match(/[\p{L}\p{N}']+/gu) ?? []).map((w) => w.toLowerCase()));
  const sentences = text.split(/[.!?\n]+/).filter((s) => s.trim() !== '');
  const avgSentenceWords = tokens.length / Math.max(1, sentences.length);
  const links = linksOf(text).length;
  const tags = (text.match(/[#@]\w+/g) ?? []).length;
  const hashtags = (text.match(/#\w+/g) ?? []).length;
  const exclamations = (text.match(/!/g) ?? []).length;
  const capitalised = tokens.filter((w) => w.length >= 3 && /\p{L}/u.test(w) && w === w.toUpperCase()).length;
  const shouting = tokens.length >= 3 && capitalised / tokens.length > 0.3;

  const hookSignals =
    Number(opening.length >= 8 && opening.length <= 100) +
    Number(/\d/.test(opening)) +
    Number(/[?!:]$|[🧵👀🎉🚨]/u.test(opening)) +
    Number(HOOK_WORDS.some((w) => openingWords.has(w)));
  const clarity =
    2 -
    Number(avgSentenceWords > 25) -
    Number(tags > 3) -
    Number(links > 2) -
    Number(tokens.length < 3) -
    Number(shouting);
  const infoSignals =
    Number(/\d/.test(text)) +
    Number(links > 0) +
    Number(EXPLAIN_WORDS.some((w) => words.has(w))) +
    Number(text.length > 120);
  const laughs = occurrences(lower, words, LAUGHS);

  const answers: Omit<Answers, 'reaction'> = {
    hook: level(hookSignals, 3, 2),
    clarity: Math.max(0, Math.min(2, clarity)),
    informative: level(infoSignals, 3, 1),
    funny: Math.min(2, laughs),
    ragebait: clamp01(
      0.25 * occurrences(lower, words, OUTRAGE) + (shouting ? 0.3 : 0) + (exclamations >= 3 ? 0.2 : 0),
    ),
    ai_written: clamp01(
      0.3 * occurrences(lower, words, MACHINE) + ((text.match(/—/g) ?? []).length >= 2 ? 0.15 : 0),
    ),
    spam: clamp01(
      0.3 * occurrences(lower, words, SPAM) +
        (links >= 2 ? 0.2 : 0) +
        (hashtags >= 5 ? 0.2 : 0) +
        (exclamations >= 3 ? 0.1 : 0),
    ),
  };
  return { ...answers, reaction: reaction(answers, text.includes('?')) };
}

function reaction(a: Omit<Answers, 'reaction'>, asks: boolean): Reaction {
  if (a.spam >= 0.5) return 'ignore';
  if (a.ragebait >= 0.5) return 'argue';
  if (asks) return 'reply';
  if (a.informative === 2 || (a.hook === 2 && a.clarity >= 1)) return 'share';
  if (a.funny >= 1 || a.clarity === 2) return 'like';
  return 'ignore';
}

const REACTION_POINTS: Record<Reaction, number> = { share: 15, reply: 12, like: 9, argue: 4, ignore: 0 };

/** The hard stops: the answer that triggers each, its threshold and the score it caps. */
const STOPS = [
  { name: 'spam', trait: 'spam', at: 0.5, cap: 15 },
  { name: 'ragebait', trait: 'ragebait', at: 0.5, cap: 35 },
  { name: 'generic_copy', trait: 'ai_written', at: 0.5, cap: 55 },
] as const;

/** The viral score 0-100 of a post's answers, and the hard stops that capped it. */
export function score(a: Answers): { score: number; stops: string[] } {
  const core = (a.hook / 2) * 25 + (a.clarity / 2) * 25;
  const rest =
    (a.informative / 2) * 15 +
    (a.funny / 2) * 10 +
    REACTION_POINTS[a.reaction] +
    (1 - a.ai_written) * 5 +
    (1 - a.spam) * 5;
  let value = Math.round(core + rest);
  const stops: string[] = [];
  for (const stop of STOPS) {
    if (a[stop.trait] >= stop.at) {
      stops.push(stop.name);
      value = Math.min(value, stop.cap);
    }
  }
  return { score: Math.max(0, Math.min(100, value)), stops };
}

/** The verdict of a score: `send_it` 70-100, `edit_first` 40-69, `sleep_on_it` 0-39. */
export function verdict(value: number): 'send_it' | 'edit_first' | 'sleep_on_it' {
  return value >= 70 ? 'send_it' : value >= 40 ? 'edit_first' : 'sleep_on_it';
}

/** The counts the engagement formulas read. */
export interface Metrics {
  likes: number;
  replies: number;
  reposts: number;
  quotes: number;
  views: number | undefined;
  followers: number | undefined;
}

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

/** The engagement measures of a published post (spec 4.11). */
export function engagement(m: Metrics): {
  algorithmScore: number | null;
  algorithmBasis: 'views' | 'followers' | null;
  actualEngagementRate: number | null;
} {
  const weighted = 0.5 * m.likes + 5 * m.replies + m.reposts + 5 * m.quotes;
  const followers = m.followers && m.followers > 0 ? m.followers : undefined;
  const basis = m.views && m.views > 0 ? 'views' : followers ? 'followers' : null;
  const divisor = basis === 'views' ? (m.views as number) : followers;
  return {
    algorithmScore: divisor ? round4((weighted / divisor) * 1000) : null,
    algorithmBasis: basis,
    actualEngagementRate: followers ? round4(Math.log10(1 + (weighted / followers) * 1000)) : null,
  };
}
