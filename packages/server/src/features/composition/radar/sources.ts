import type { schemas } from '@xsvc/sdk/contract';
import type { Prng } from '../../../platform/simulated/prng.js';

/** A radar source. */
export type RadarSource = (typeof schemas.RADAR_SOURCES)[number];
/** A radar topic category. */
export type RadarCategory = (typeof schemas.RADAR_CATEGORIES)[number];

/** Regions radar items trend in; `global` reads every region. */
export const RADAR_REGIONS = ['global', 'us', 'gb', 'de', 'in', 'jp', 'br'] as const;

/** What an item is generated from: its source-independent parts. */
export interface ItemSeed {
  /** Position of the item within its source (0-based), its rank among the source's items. */
  index: number;
  subject: string;
  category: RadarCategory;
  region: string;
}

/** How one source turns an item seed into a title, link, summary and its 15 metadata fields. */
export interface SourceProfile {
  categories: readonly RadarCategory[];
  title(s: ItemSeed, r: Prng): string;
  url(s: ItemSeed, slug: string): string;
  description(s: ItemSeed): string;
  /** The source's metadata: 15 fields, the optional ones present only when they apply. */
  metadata(s: ItemSeed, r: Prng, slug: string): Record<string, unknown>;
}

const LANGUAGES = ['TypeScript', 'Rust', 'Go', 'Python', 'Zig', 'Kotlin', 'C++', 'Elixir'];
const LICENSES = ['MIT', 'Apache-2.0', 'GPL-3.0', 'BSD-3-Clause'];
const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'IN', 'BR', 'JP', 'CA', 'ES', 'NL'];
const PROVIDERS = ['stripe', 'paddle', 'lemonsqueezy', 'revenuecat'];
const SUBREDDITS = [
  'technology',
  'programming',
  'science',
  'worldnews',
  'movies',
  'startups',
  'dataisbeautiful',
];

const pct = (r: Prng, min: number, max: number) => Math.round((min + r.next() * (max - min)) * 10) / 10;
const hoursAgo = (r: Prng, max: number) => r.int(1, max);

/** The seven sources, each with its own fields (spec 2.15: 15 metadata fields per source). */
export const SOURCE_PROFILES: Readonly<Record<RadarSource, SourceProfile>> = {
  github: {
    categories: ['dev', 'tech'],
    title: (s, r) =>
      `${s.subject.replace(/\s+/g, '-').toLowerCase()}-${r.pick(['kit', 'rs', 'js', 'cli', 'db'])}`,
    url: (_s, slug) => `https://github.com/trending/${slug}`,
    description: (s) => `A fast-rising open source project for ${s.subject}.`,
    metadata: (s, r, slug) => {
      const stars = r.int(200, 60_000);
      return {
        owner: slug.split('-')[0] ?? slug,
        repo: slug,
        language: r.pick(LANGUAGES),
        stars,
        starsToday: r.int(20, Math.max(21, Math.floor(stars / 20))),
        forks: Math.floor(stars * pct(r, 0.02, 0.2)),
        openIssues: r.int(0, 400),
        watchers: Math.floor(stars / r.int(8, 30)),
        contributors: r.int(1, 300),
        topics: [s.subject.toLowerCase(), r.pick(['ai', 'devtools', 'database', 'web', 'cli'])],
        createdDaysAgo: r.int(3, 2_000),
        pushedHoursAgo: hoursAgo(r, 48),
        rank: s.index + 1,
        ...(r.chance(0.8) && { license: r.pick(LICENSES) }),
        ...(r.chance(0.5) && { homepage: `https://${slug}.dev` }),
      };
    },
  },
  google_trends: {
    categories: ['general', 'entertainment', 'politics', 'business', 'culture'],
    title: (s) => s.subject,
    url: (s) => `https://trends.google.com/trends/explore?q=${encodeURIComponent(s.subject)}&geo=${s.region}`,
    description: (s) => `Searches for "${s.subject}" are climbing.`,
    metadata: (s, r) => ({
      query: s.subject.toLowerCase(),
      searchVolume: r.int(2, 500) * 1_000,
      growthPercent: pct(r, 50, 5_000),
      rank: s.index + 1,
      geo: s.region === 'global' ? 'WORLDWIDE' : s.region.toUpperCase(),
      startedHoursAgo: hoursAgo(r, 72),
      peakHoursAgo: hoursAgo(r, 24),
      isRising: r.chance(0.7),
      relatedQueries: [`${s.subject.toLowerCase()} news`, `what is ${s.subject.toLowerCase()}`],
      articleCount: r.int(0, 300),
      trafficBucket: r.pick(['2K+', '20K+', '100K+', '500K+', '1M+']),
      timeframeHours: 24,
      language: 'en',
      ...(r.chance(0.6) && { breakdownBy: r.pick(['city', 'region']) }),
      ...(r.chance(0.4) && { imageSource: 'news' }),
    }),
  },
  hacker_news: {
    categories: ['tech', 'dev', 'science', 'business'],
    title: (s, r) =>
      r.pick([`Show HN: ${s.subject}`, `Ask HN: Is ${s.subject} worth it?`, `${s.subject} explained`]),
    url: (s) => `https://news.ycombinator.com/item?id=${40_000_000 + s.index * 7919}`,
    description: (s) => `Discussion about ${s.subject} on the front page.`,
    metadata: (s, r, slug) => ({
      storyId: String(40_000_000 + s.index * 7919),
      points: r.int(20, 2_500),
      comments: r.int(0, 1_200),
      rank: s.index + 1,
      author: `${slug.slice(0, 6)}${r.int(1, 99)}`,
      ageHours: hoursAgo(r, 72),
      type: r.pick(['story', 'show', 'ask']),
      domain: `${slug.split('-')[0] ?? 'example'}.com`,
      isFrontPage: s.index < 30,
      upvoteRatePerHour: pct(r, 1, 120),
      commentRatio: pct(r, 0.05, 1.5),
      flagged: false,
      dead: false,
      ...(r.chance(0.3) && { pollOptions: r.int(2, 6) }),
      ...(r.chance(0.2) && { jobPosting: true }),
    }),
  },
  polymarket: {
    categories: ['politics', 'business', 'entertainment', 'science'],
    title: (s) => `Will ${s.subject} happen by the end of the year?`,
    url: (_s, slug) => `https://polymarket.com/event/${slug}`,
    description: (s) => `Prediction market on ${s.subject}.`,
    metadata: (s, r, slug) => {
      const yes = pct(r, 0.02, 0.98);
      return {
        marketId: slug,
        yesPrice: yes,
        noPrice: Math.round((1 - yes) * 1000) / 1000,
        volume24h: r.int(1, 900) * 1_000,
        volumeTotal: r.int(10, 90_000) * 1_000,
        liquidity: r.int(5, 5_000) * 1_000,
        traders: r.int(50, 60_000),
        change24hPercent: pct(r, -40, 40),
        endDaysAhead: r.int(1, 365),
        outcomes: ['Yes', 'No'],
        rank: s.index + 1,
        resolved: false,
        category: s.category,
        ...(r.chance(0.4) && { resolutionSource: 'official announcement' }),
        ...(r.chance(0.3) && { featured: true }),
      };
    },
  },
  reddit: {
    categories: ['general', 'tech', 'science', 'culture', 'entertainment'],
    title: (s, r) =>
      r.pick([`TIL about ${s.subject}`, `${s.subject} is everywhere right now`, `Thoughts on ${s.subject}?`]),
    url: (s, slug) => `https://www.reddit.com/r/${SUBREDDITS[s.index % SUBREDDITS.length]}/comments/${slug}`,
    description: (s) => `A busy thread about ${s.subject}.`,
    metadata: (s, r, slug) => ({
      subreddit: SUBREDDITS[s.index % SUBREDDITS.length],
      postId: slug,
      upvotes: r.int(100, 90_000),
      upvoteRatio: pct(r, 0.6, 0.99),
      comments: r.int(10, 15_000),
      awards: r.int(0, 40),
      author: `u_${slug.slice(0, 8)}`,
      ageHours: hoursAgo(r, 72),
      rank: s.index + 1,
      isVideo: r.chance(0.2),
      over18: false,
      crossposts: r.int(0, 30),
      flair: r.pick(['Discussion', 'News', 'OC', 'Question']),
      ...(r.chance(0.5) && { linkDomain: 'i.redd.it' }),
      ...(r.chance(0.1) && { stickied: true }),
    }),
  },
  trustmrr: {
    categories: ['business', 'tech'],
    title: (s) => `${s.subject} (verified revenue)`,
    url: (_s, slug) => `https://trustmrr.com/startup/${slug}`,
    description: (s) => `A bootstrapped ${s.subject} business with verified revenue.`,
    metadata: (s, r, slug) => {
      const mrr = r.int(500, 250_000);
      const onSale = r.chance(0.3);
      const askingPrice = onSale ? mrr * 12 * r.int(2, 6) : undefined;
      return {
        mrr,
        growthPercent: pct(r, -20, 180),
        last30Days: Math.round(mrr * pct(r, 0.9, 1.15)),
        total: mrr * r.int(6, 60),
        customers: r.int(10, 20_000),
        activeSubscriptions: r.int(10, 15_000),
        onSale,
        ...(askingPrice !== undefined && {
          askingPrice,
          multiple: Math.round((askingPrice / (mrr * 12)) * 10) / 10,
        }),
        ...(r.chance(0.9) && { country: r.pick(COUNTRIES) }),
        ...(r.chance(0.7) && { growthMrrPercent: pct(r, -10, 90) }),
        paymentProvider: r.pick(PROVIDERS),
        rank: s.index + 1,
        category: s.category,
        ...(r.chance(0.6) && { xHandle: slug.replace(/-/g, '_').slice(0, 15) }),
      };
    },
  },
  wikipedia: {
    categories: ['general', 'science', 'culture', 'politics'],
    title: (s) => s.subject,
    url: (s) => `https://en.wikipedia.org/wiki/${encodeURIComponent(s.subject.replace(/ /g, '_'))}`,
    description: (s) => `The article on ${s.subject} is among the most read today.`,
    metadata: (s, r) => ({
      article: s.subject.replace(/ /g, '_'),
      views: r.int(5, 900) * 1_000,
      viewsChangePercent: pct(r, 10, 3_000),
      rank: s.index + 1,
      project: 'en.wikipedia',
      editsToday: r.int(0, 300),
      editors: r.int(0, 120),
      pageLengthBytes: r.int(2_000, 250_000),
      languages: r.int(1, 200),
      isCurrentEvent: r.chance(0.4),
      protection: r.pick(['none', 'semi', 'extended']),
      lastEditedHoursAgo: hoursAgo(r, 48),
      references: r.int(0, 600),
      ...(r.chance(0.5) && { thumbnail: true }),
      ...(r.chance(0.3) && { wikidataId: `Q${r.int(1_000, 9_999_999)}` }),
    }),
  },
};
