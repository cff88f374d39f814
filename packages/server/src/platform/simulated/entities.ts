import type { StoredEntities } from './stored.js';

/** Resolves what a tweet's text refers to: user ids of mentioned usernames, expansions of short links. */
export interface EntityResolver {
  /** The user id of a lower-cased username, when the user exists. */
  userId?: (usernameLower: string) => string | undefined;
  /** The expanded URL of a short link (`https://t.co/…`), when known. */
  expand?: (url: string) => string | undefined;
}

const MENTION = /(?:^|[^A-Za-z0-9_@])@([A-Za-z0-9_]{1,15})(?![A-Za-z0-9_@])/g;
const HASHTAG = /(?:^|[^\p{L}\p{N}_&#])[#＃]([\p{L}\p{N}_]*[\p{L}_][\p{L}\p{N}_]*)/gu;
const CASHTAG = /(?:^|[^\p{L}\p{N}_$])\$([A-Za-z]{1,6}(?:[._][A-Za-z]{1,2})?)(?![A-Za-z0-9_])/gu;
const URL = /https?:\/\/[^\s<>"]+/g;

/** The mentions, hashtags, cashtags and links of a text, each listed once, in order of appearance. */
export function parseEntities(text: string, resolver: EntityResolver = {}): StoredEntities {
  const out: StoredEntities = {};
  // Cheap checks first: most texts have no entity of a kind, and the regexes are the slow part of a seed.
  if (text.includes('http')) {
    const urls = unique(
      [...text.matchAll(URL)].map((m) => m[0].replace(/[.,;:!?)\]'"]+$/, '')),
      (s) => s,
    ).map((url) => {
      const expandedUrl = resolver.expand?.(url) ?? url;
      return { url, expandedUrl, displayUrl: displayUrl(expandedUrl) };
    });
    if (urls.length) out.urls = urls;
  }
  if (text.includes('@')) {
    const mentions = unique(
      [...text.matchAll(MENTION)].map((m) => m[1] as string),
      (s) => s.toLowerCase(),
    ).map((username) => {
      const id = resolver.userId?.(username.toLowerCase());
      return id === undefined ? { username } : { id, username };
    });
    if (mentions.length) out.mentions = mentions;
  }
  if (text.includes('#') || text.includes('＃')) {
    const hashtags = unique(
      [...text.matchAll(HASHTAG)].map((m) => m[1] as string),
      (s) => s.toLowerCase(),
    ).map((t) => ({ text: t }));
    if (hashtags.length) out.hashtags = hashtags;
  }
  if (text.includes('$')) {
    const cashtags = unique(
      [...text.matchAll(CASHTAG)].map((m) => m[1] as string),
      (s) => s.toUpperCase(),
    ).map((t) => ({ text: t }));
    if (cashtags.length) out.cashtags = cashtags;
  }
  return out;
}

/** How the platform shows a link: no scheme, no `www.`, cut at 25 characters with an ellipsis. */
export function displayUrl(url: string): string {
  const bare = url.replace(/^https?:\/\//, '').replace(/^www\./, '');
  return bare.length > 25 ? `${bare.slice(0, 24)}…` : bare;
}

/** The offsets of the visible text: leading `@mentions` of a reply are not part of it (spec 2.10). */
export function displayTextRange(text: string): [number, number] {
  const lead = /^(?:@[A-Za-z0-9_]{1,15}\s+)+/.exec(text);
  const length = [...text].length;
  const start = lead ? [...lead[0]].length : 0;
  return [Math.min(start, length), length];
}

function unique<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
