import type { z } from 'zod';
import { checkBound, defaultValueOf, defType, zodDef } from '../contract/introspect.js';

/**
 * Builds a value that satisfies a schema, for mock answers and documentation. Deterministic: the same
 * schema always gives the same example. Optional fields are filled in (richer mocks); unions take the first
 * branch that validates; paginated envelopes end (`has_next_page: false`, `hasMore: false`).
 */
export function exampleFor(schema: z.ZodType, key = '', depth = 0, parent = ''): unknown {
  const def = zodDef(schema);
  switch (def.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries((schema as z.ZodObject).shape)) {
        if (depth > 4 && isOptional(v as z.ZodType)) continue;
        const value = exampleFor(v as z.ZodType, k, depth + 1, key);
        if (value !== undefined) out[k] = value;
      }
      if ('has_next_page' in out) out.has_next_page = false;
      if ('next_cursor' in out) out.next_cursor = '';
      if ('hasMore' in out) {
        out.hasMore = false;
        delete out.nextCursor;
      }
      return out;
    }
    case 'optional':
      return exampleFor(def.innerType as z.ZodType, key, depth, parent);
    case 'nullable':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return exampleFor(def.innerType as z.ZodType, key, depth, parent);
    case 'default':
    case 'prefault':
      return defaultValueOf(schema);
    case 'pipe':
      return exampleFor(def.in as z.ZodType, key, depth, parent);
    case 'transform':
      return undefined;
    case 'lazy':
      return depth > 6 ? undefined : exampleFor((def.getter as () => z.ZodType)(), key, depth + 1, parent);
    case 'array': {
      const el = exampleFor(def.element as z.ZodType, key, depth + 1, parent);
      const min = checkBound(schema, 'min_length') ?? 0;
      return el === undefined ? [] : Array.from({ length: Math.max(1, min) }, () => el);
    }
    case 'enum':
      return Object.values(def.entries as Record<string, unknown>)[0];
    case 'literal':
      return (def.values as unknown[])[0];
    case 'union': {
      for (const o of def.options as z.ZodType[]) {
        const v = exampleFor(o, key, depth + 1, parent);
        if (o.safeParse(v).success) return v;
      }
      return exampleFor((def.options as z.ZodType[])[0]!, key, depth + 1, parent);
    }
    case 'intersection': {
      const l = exampleFor(def.left as z.ZodType, key, depth, parent);
      const r = exampleFor(def.right as z.ZodType, key, depth, parent);
      return typeof l === 'object' && typeof r === 'object' ? { ...(l as object), ...(r as object) } : l;
    }
    case 'record':
      return {};
    case 'string':
      return stringExample(schema, key, parent);
    case 'number':
    case 'int': {
      const realistic = numberFor(key);
      if (realistic !== undefined && schema.safeParse(realistic).success) return realistic;
      const min = checkBound(schema, 'greater_than');
      const max = checkBound(schema, 'less_than');
      if (min !== undefined) return min;
      if (max !== undefined) return Math.min(max, 1);
      return /count|total|entries|attempts|followers|following/i.test(key) ? 3 : 1;
    }
    case 'boolean':
      return key.startsWith('is') || key === 'success';
    case 'null':
      return null;
    case 'bigint':
      return 1n;
    case 'date':
      return new Date(0);
    default:
      return undefined;
  }
}

function isOptional(s: z.ZodType): boolean {
  return defType(s) === 'optional';
}

const CANDIDATES = [
  '1790000000000000001',
  '2026-04-29T12:00:00.000Z',
  '2026-04-29',
  '00000000-0000-4000-8000-000000000001',
  'https://example.com/docs/getting-started',
  'example@example.com',
  `svc_${'0'.repeat(64)}`,
  'xch_example',
  '#example',
  '@example',
  'example_1',
  'usd',
  'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk0123456789abcdefghijk',
  '0'.repeat(64),
  '0123456789abcdef0123456789abcdef',
  'example',
  'https://x.com/example/status/1790000000000000001',
  'ex',
  'a',
  '1',
  'https',
  '',
];

function stringExample(schema: z.ZodType, key: string, parent: string): string {
  const s = schema as z.ZodString & { format?: string | null };
  const fmt = s.format ?? undefined;
  if (fmt === 'datetime') return '2026-04-29T12:00:00.000Z';
  if (fmt === 'date') return '2026-04-29';
  if (fmt === 'uuid' || fmt === 'guid') return '00000000-0000-4000-8000-000000000001';
  const readable = readableFor(key, parent);
  if (readable !== undefined && schema.safeParse(readable).success) return readable;
  if (fmt === 'url') return 'https://example.com/docs/getting-started';
  if (fmt === 'email') return 'jack@example.com';
  const preferred: string[] = [];
  if (/At$|^timestamp$|expires|Since$/.test(key)) preferred.push('2026-04-29T12:00:00.000Z');
  // Targets may name the same thing as an id field beside them (a request with one target counts it once).
  const idLike = /[iI]ds?$|^id$|^targets$|^value$/.test(key);
  if (idLike) preferred.push('1790000000000000001');
  if (/[uU]rl$|^url$/.test(key)) preferred.push('https://example.com/docs/getting-started');
  if (/balance|credits|lifetime|threshold|estimate|burn|day|hour/i.test(key)) preferred.push('1000');
  if (/username|userName/i.test(key)) preferred.push('jack');
  // A free-text field reads as a word, not as the digits of an id.
  if (!idLike) preferred.push('example');
  for (const c of [...preferred, ...CANDIDATES]) if (schema.safeParse(c).success) return c;
  return 'example';
}

/**
 * What a person would expect in a field, by its name and the object holding it: tweet text that reads as
 * a tweet, a name, a username, a language code, URLs on example.com paths that look like real pages. Only
 * used when the schema accepts it (else the generic candidates below apply), so examples stay valid.
 */
export function readableFor(key: string, parent = ''): string | undefined {
  const k = key.toLowerCase();
  const p = parent.toLowerCase();
  if (k === 'text' && p.includes('hashtag')) return 'buildinpublic';
  if (k === 'text' && p.includes('cashtag')) return 'XSVC';
  if (k === 'hashtags' || k === 'requiredhashtags') return '#buildinpublic';
  if (k === 'text' || k === 'fulltext' || k === 'content' || k === 'draft') {
    return 'Shipping signed webhooks today: every delivery is retried until your endpoint says 2xx.';
  }
  if (k === 'label') return 'Ship it';
  if (k === 'title') return 'Getting started with webhooks';
  if (k === 'summary') return 'How signed deliveries, retries and local listeners fit together.';
  if (k === 'description' || k === 'bio') {
    return p.includes('communit')
      ? 'Builders shipping Rust in production.'
      : 'Building tools for developers. APIs, webhooks and open source.';
  }
  if (k === 'communityname' || (k === 'name' && p.includes('communit'))) return 'Rust builders';
  if (k === 'name' && p.includes('list')) return 'Developer tools';
  if (
    k === 'name' &&
    (p === '' || /user|author|account|profile|member|follower|sender|recipient|mention/.test(p))
  ) {
    return 'Jack Example';
  }
  if (/^(user(name)?|screenname|xusername|inreplytousername|handle|targetusername|fromuser|touser)$/.test(k))
    return 'jack';
  if (/^(lang|language|locale|filterlanguage)$/.test(k)) return 'en';
  if (k === 'location') return 'San Francisco, CA';
  if (k === 'source') return 'Twitter Web App';
  if (k === 'type' && p.includes('media')) return 'photo';
  if (k === 'type' && (p.includes('tweet') || p === 'quoted_tweet')) return 'tweet';
  if (k === 'contenttype' || k === 'mimetype') return 'video/mp4';
  if (k === 'q' || k === 'query') return 'from:jack webhooks';
  if (k === 'email') return 'jack@example.com';
  if (/^(profilepicture|profileimage|profileimageurl|avatar|avatarurl)$/.test(k)) {
    return 'https://example.com/images/profile/jack.jpg';
  }
  if (/^(coverpicture|banner|bannerurl|profilebanner|profilebannerurl|coverimage)$/.test(k)) {
    return 'https://example.com/images/banner/jack.jpg';
  }
  if (k === 'url' && p.includes('variant')) return 'https://example.com/media/1790000000000000001.mp4';
  if (k === 'mediaurl' || k === 'thumbnailurl' || (k === 'url' && p.includes('media'))) {
    return 'https://example.com/media/1790000000000000001.jpg';
  }
  if (k === 'url' && p.includes('webhook')) return 'https://example.com/hooks/xsvc';
  if (k === 'url' && /tweet|status|article/.test(p)) return 'https://x.com/jack/status/1790000000000000001';
  if (k === 'tweeturl') return 'https://x.com/jack/status/1790000000000000001';
  if (k === 'displayurl') return 'example.com/blog/signed-webhooks';
  if (k === 'url' || k === 'expandedurl' || k === 'website' || k === 'link')
    return 'https://example.com/blog/signed-webhooks';
  return undefined;
}

/** Counts as they look on a real account or tweet (the schema's bounds still win). */
function numberFor(key: string): number | undefined {
  const counts: Readonly<Record<string, number>> = {
    likeCount: 128,
    retweetCount: 24,
    replyCount: 12,
    quoteCount: 3,
    viewCount: 5120,
    bookmarkCount: 9,
    followers: 1200,
    following: 180,
    followersCount: 1200,
    followingCount: 180,
    statusesCount: 4200,
    tweetCount: 4200,
    mediaCount: 86,
    favouritesCount: 900,
    width: 1200,
    height: 675,
    votes: 42,
  };
  return counts[key];
}
