import type { TweetFilters } from '../../core/platform/platform.js';

/** One condition of a tweet search. Usernames and words are lower-cased; times are epoch ms. */
export type Atom =
  | { kind: 'word'; value: string }
  | { kind: 'phrase'; value: string }
  | { kind: 'from' | 'to' | 'mention'; value: string }
  | { kind: 'hashtag' | 'cashtag'; value: string }
  | { kind: 'lang'; value: string }
  | { kind: 'filter'; value: SearchFilter }
  | { kind: 'min'; field: 'like_count' | 'retweet_count' | 'reply_count' | 'quote_count'; value: number }
  | { kind: 'since' | 'until'; value: number }
  | { kind: 'url'; value: string }
  | { kind: 'conversation'; value: string };

/** The `filter:` values understood (others are ignored, as the platform does). */
export const SEARCH_FILTERS = [
  'media',
  'images',
  'videos',
  'gifs',
  'links',
  'replies',
  'quotes',
  'retweets',
  'polls',
  'verified',
  'hashtags',
  'mentions',
] as const;
export type SearchFilter = (typeof SEARCH_FILTERS)[number];

const FILTER_ALIASES: Readonly<Record<string, SearchFilter>> = {
  native_video: 'videos',
  video: 'videos',
  twimg: 'images',
  nativeretweets: 'retweets',
  blue_verified: 'verified',
  news: 'links',
};

/** A condition, possibly negated (`-word`, `-filter:replies`). */
export interface Term {
  atom: Atom;
  negated: boolean;
}

/** A search: every clause must hold; a clause holds when any of its terms does (`a OR b`). */
export type SearchQuery = Term[][];

/**
 * Parses the platform's search syntax: free words, `"exact phrase"`, `-exclude`, `OR`, `from:`, `to:`,
 * `@mention`, `#hashtag`, `$cashtag`, `lang:`, `filter:…` and `-filter:…`, `min_faves:`, `min_retweets:`,
 * `min_replies:`, `since:`/`until:` (YYYY-MM-DD), `since_time:`/`until_time:` (Unix seconds), `url:`,
 * `conversation_id:`. A malformed operator is searched as a word, as the platform does. Parentheses are
 * accepted and ignored (OR binds the terms around it).
 */
export function parseSearchQuery(q: string): SearchQuery {
  const tokens = q.match(/-?"[^"]*"?|[^\s()]+/g) ?? [];
  const clauses: SearchQuery = [];
  let joinNext = false;
  for (const token of tokens) {
    if (token === 'OR' || token === '|') {
      joinNext = clauses.length > 0;
      continue;
    }
    const term = parseTerm(token);
    if (!term) continue;
    const last = clauses[clauses.length - 1];
    if (joinNext && last) last.push(term);
    else clauses.push([term]);
    joinNext = false;
  }
  return clauses;
}

function parseTerm(token: string): Term | undefined {
  const negated = token.length > 1 && token.startsWith('-');
  const body = negated ? token.slice(1) : token;
  const atom = parseAtom(body);
  return atom && { atom, negated };
}

function parseAtom(body: string): Atom | undefined {
  if (body.startsWith('"')) {
    const value = body.replace(/^"|"$/g, '').trim().toLowerCase();
    return value ? { kind: 'phrase', value } : undefined;
  }
  const op = /^([a-z_]+):(.+)$/i.exec(body);
  if (op) {
    const atom = operator((op[1] as string).toLowerCase(), op[2] as string);
    if (atom) return atom;
  }
  if (/^@\w{1,15}$/.test(body)) return { kind: 'mention', value: body.slice(1).toLowerCase() };
  if (/^[#＃][\p{L}\p{N}_]+$/u.test(body)) return { kind: 'hashtag', value: body.slice(1).toLowerCase() };
  if (/^\$[A-Za-z]{1,6}(?:[._][A-Za-z]{1,2})?$/.test(body))
    return { kind: 'cashtag', value: body.slice(1).toLowerCase() };
  const word = body.toLowerCase().replace(/^[^\p{L}\p{N}_@#$]+|[^\p{L}\p{N}_]+$/gu, '');
  return word ? { kind: 'word', value: word } : undefined;
}

function operator(name: string, raw: string): Atom | undefined {
  const value = raw.toLowerCase();
  switch (name) {
    case 'from':
    case 'to':
      return /^@?\w{1,15}$/.test(value) ? { kind: name, value: value.replace(/^@/, '') } : undefined;
    case 'lang':
      return /^[a-z]{2,3}(-[a-z]{2,4})?$/.test(value) ? { kind: 'lang', value } : undefined;
    case 'filter':
    case 'include': {
      const f = (SEARCH_FILTERS as readonly string[]).includes(value)
        ? (value as SearchFilter)
        : FILTER_ALIASES[value];
      return f && { kind: 'filter', value: f };
    }
    case 'min_faves':
    case 'min_retweets':
    case 'min_replies':
    case 'min_quotes': {
      if (!/^\d{1,12}$/.test(value)) return undefined;
      const field = (
        {
          min_faves: 'like_count',
          min_retweets: 'retweet_count',
          min_replies: 'reply_count',
          min_quotes: 'quote_count',
        } as const
      )[name];
      return { kind: 'min', field, value: Number(value) };
    }
    case 'since':
    case 'until': {
      const ms = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN;
      return Number.isNaN(ms) ? undefined : { kind: name, value: ms };
    }
    case 'since_time':
    case 'until_time':
      return /^\d{1,13}$/.test(value)
        ? { kind: name === 'since_time' ? 'since' : 'until', value: toMs(Number(value)) }
        : undefined;
    case 'url':
      return { kind: 'url', value };
    case 'conversation_id':
      return /^\d{1,25}$/.test(value) ? { kind: 'conversation', value } : undefined;
    default:
      return undefined;
  }
}

/** Unix seconds (the reference's `sinceTime`/`untilTime`) to epoch ms; values already in ms pass through. */
export function toMs(time: number): number {
  return time < 100_000_000_000 ? time * 1000 : time;
}

const MEDIA_TYPES: Readonly<Record<string, SearchFilter | 'none'>> = {
  media: 'media',
  images: 'images',
  image: 'images',
  photo: 'images',
  photos: 'images',
  videos: 'videos',
  video: 'videos',
  gifs: 'gifs',
  gif: 'gifs',
  animated_gif: 'gifs',
  links: 'links',
  none: 'none',
};

/** The clauses equivalent to the structured filters of a search or a timeline. */
export function filterClauses(f: TweetFilters): SearchQuery {
  const out: SearchQuery = [];
  const add = (atom: Atom, negated = false) => out.push([{ atom, negated }]);
  const user = (v: string) => v.trim().replace(/^@/, '').toLowerCase();
  if (f.fromUser) add({ kind: 'from', value: user(f.fromUser) });
  if (f.toUser) add({ kind: 'to', value: user(f.toUser) });
  if (f.mentioning) add({ kind: 'mention', value: user(f.mentioning) });
  if (f.language) add({ kind: 'lang', value: f.language.toLowerCase() });
  if (f.sinceTime !== undefined) add({ kind: 'since', value: toMs(f.sinceTime) });
  if (f.untilTime !== undefined) add({ kind: 'until', value: toMs(f.untilTime) });
  if (f.mediaType) {
    const m = MEDIA_TYPES[f.mediaType.toLowerCase()];
    if (m === 'none') add({ kind: 'filter', value: 'media' }, true);
    else if (m) add({ kind: 'filter', value: m });
  }
  if (f.minFaves !== undefined) add({ kind: 'min', field: 'like_count', value: f.minFaves });
  if (f.minRetweets !== undefined) add({ kind: 'min', field: 'retweet_count', value: f.minRetweets });
  if (f.minReplies !== undefined) add({ kind: 'min', field: 'reply_count', value: f.minReplies });
  const mode = (value: SearchFilter, m: 'include' | 'exclude' | 'only' | undefined) => {
    if (m === 'only') add({ kind: 'filter', value });
    if (m === 'exclude') add({ kind: 'filter', value }, true);
  };
  mode('replies', f.replies);
  mode('retweets', f.retweets);
  mode('quotes', f.quotes);
  if (f.verifiedOnly) add({ kind: 'filter', value: 'verified' });
  if (f.exactPhrase?.trim()) add({ kind: 'phrase', value: f.exactPhrase.trim().toLowerCase() });
  for (const w of f.excludeWords ?? []) {
    const atom = parseAtom(w.trim());
    if (atom) add(atom, true);
  }
  const any = (f.anyWords ?? []).flatMap((w) => {
    const atom = parseAtom(w.trim());
    return atom ? [{ atom, negated: false }] : [];
  });
  if (any.length) out.push(any);
  const tags = (f.hashtags ?? []).flatMap((h) => {
    const value = h
      .trim()
      .replace(/^[#＃]/, '')
      .toLowerCase();
    return value ? [{ atom: { kind: 'hashtag', value } as Atom, negated: false }] : [];
  });
  if (tags.length) out.push(tags);
  return out;
}

/** Whether a query asks for retweets itself (otherwise a search leaves them out, as the platform does). */
export function mentionsRetweets(query: SearchQuery): boolean {
  return query.some((clause) => clause.some((t) => t.atom.kind === 'filter' && t.atom.value === 'retweets'));
}
