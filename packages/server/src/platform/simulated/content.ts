import type { Prng } from './prng.js';
import {
  BIO_INTERESTS,
  BIO_ROLES,
  BIO_SUFFIXES,
  FIRST_NAMES,
  LANGUAGES,
  LAST_NAMES,
  type LanguagePack,
  type Topic,
} from './vocabulary.js';

/** The sentence fragments of `lang`, English when the language has none. */
export function languagePack(lang: string): LanguagePack {
  return LANGUAGES[lang] ?? (LANGUAGES.en as LanguagePack);
}

/** One sentence on `topic` in `lang`. */
export function sentence(prng: Prng, lang: string, topic: Topic): string {
  const p = languagePack(lang);
  const middle = prng.pick(p.middles).replace('{w}', prng.pick(topic.words));
  if (!prng.chance(0.7)) return `${prng.pick(p.openers)} ${middle}`;
  // A closer that starts a new sentence gets a full stop before it ("…everything. Thoughts?").
  const closer = prng.pick(p.closers);
  const joint = /^\p{Lu}/u.test(closer) && !/[.!?。:]$/.test(middle) ? '. ' : ' ';
  return `${prng.pick(p.openers)} ${middle}${joint}${closer}`;
}

/** What a tweet may carry besides its sentence. */
export interface TextExtras {
  hashtags?: number;
  cashtag?: boolean;
  mentions?: readonly string[];
  link?: string;
}

/** The text of an original tweet: a sentence, then mentions, hashtags, a cashtag and a link as asked. */
export function tweetText(prng: Prng, lang: string, topic: Topic, extras: TextExtras = {}): string {
  const parts = [sentence(prng, lang, topic)];
  if (prng.chance(0.25)) parts.push(`${stop(parts.pop() as string)} ${sentence(prng, lang, topic)}`);
  for (const m of extras.mentions ?? []) parts.push(`@${m}`);
  for (const tag of prng.sample(topic.hashtags, extras.hashtags ?? 0)) parts.push(`#${tag}`);
  if (extras.cashtag && topic.cashtags.length) parts.push(`$${prng.pick(topic.cashtags)}`);
  if (extras.link) parts.push(extras.link);
  return parts.join(' ');
}

/** The text of a reply to `username`: the leading mention, then a short reaction. */
export function replyText(prng: Prng, lang: string, topic: Topic, username: string): string {
  const p = languagePack(lang);
  const reaction = prng.pick(p.replies);
  return prng.chance(0.4)
    ? `@${username} ${stop(reaction)} ${sentence(prng, lang, topic)}`
    : `@${username} ${reaction}`;
}

/**
 * A Note Tweet (long form): paragraphs on `topic` until about `length` characters (over 280, at most
 * 25,000), cut at a word boundary.
 */
export function noteText(prng: Prng, lang: string, topic: Topic, length: number): string {
  const target = Math.max(281, Math.min(25_000, length));
  const paragraphs: string[] = [];
  let total = 0;
  while (total < target) {
    const n = prng.int(2, 5);
    const para = Array.from({ length: n }, () => stop(sentence(prng, lang, topic))).join(' ');
    paragraphs.push(para);
    total += para.length + 2;
  }
  let text = paragraphs.join('\n\n');
  if (text.length > target) {
    const cut = text.lastIndexOf(' ', target - 1);
    text = text.slice(0, cut > 281 ? cut : target);
  }
  return text;
}

/** A display name. */
export function displayName(prng: Prng): string {
  const first = prng.pick(FIRST_NAMES);
  if (prng.chance(0.1)) return first;
  return `${first} ${prng.pick(LAST_NAMES)}`;
}

/** A profile bio, empty for about one account in eight. */
export function bio(prng: Prng, topic: Topic): string {
  if (prng.chance(0.12)) return '';
  const interests = prng.sample(BIO_INTERESTS, prng.int(1, 3)).join(', ');
  const tag = prng.chance(0.3) ? ` #${prng.pick(topic.hashtags)}` : '';
  return `${prng.pick(BIO_ROLES)}. Into ${interests}.${tag} ${prng.pick(BIO_SUFFIXES)}`.trim();
}

/** A long-form article: a title and paragraphs (one per line, as the platform's plain-text body). */
export function articleText(prng: Prng, lang: string, topic: Topic): { title: string; body: string } {
  const title = sentence(prng, lang, topic).replace(/[.!?]+$/, '');
  const body = noteText(prng, lang, topic, prng.int(1_200, 6_000)).replace(/\n\n/g, '\n');
  return { title, body };
}

/** Ends a sentence with a full stop unless it already ends with punctuation. */
function stop(sentence: string): string {
  if (/[.!?。:！？]$/.test(sentence)) return sentence;
  return /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]$/u.test(sentence)
    ? `${sentence}。`
    : `${sentence}.`;
}
