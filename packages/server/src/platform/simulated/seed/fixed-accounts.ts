import type { MediaType } from '../media.js';

/** A scripted tweet of a fixed account; times are hours before the seed's `now` unless `at` is given. */
export interface FixedTweet {
  key: string;
  text: string;
  ageHours: number;
  /** An absolute creation time and id, for the legacy tweets older than snowflake ids. */
  legacy?: { id: string; at: number };
  /** Replies from other accounts, or the giveaway's entry count. */
  replies?: number | 'giveaway';
  pinned?: boolean;
  deleted?: boolean;
  media?: MediaType[];
  poll?: string[];
  link?: string;
  /** Follow-up tweets of the author replying to this one, a thread. */
  thread?: string[];
  article?: { title: string; body: string };
  /** Continue the text into a Note Tweet of about this many characters. */
  note?: number;
}

/** An account every seed contains, with a stable username (and a stable id: from its fixed creation time). */
export interface FixedAccount {
  username: string;
  name: string;
  /** A legacy id (accounts older than snowflake ids); otherwise derived from `createdAt`. */
  id?: string;
  createdAt: number;
  description: string;
  location: string;
  url: string;
  verifiedType: 'blue' | 'business' | 'government' | null;
  protected?: boolean;
  suspended?: boolean;
  /** Share of all follow choices this account attracts (power-law head). */
  followShare: number;
  topic: string;
  tweets: FixedTweet[];
}

const utc = (y: number, m: number, d: number, h = 12, min = 0, s = 0) => Date.UTC(y, m - 1, d, h, min, s);

/** The demo accounts: `jack`, `xsvc_demo`, `newsroom`, `locked_account`, `suspended_acct`, and two more. */
export const FIXED_ACCOUNTS: readonly FixedAccount[] = [
  {
    username: 'jack',
    name: 'jack',
    id: '12',
    createdAt: utc(2006, 3, 21, 20, 50, 14),
    description: 'no state is the best state',
    location: '',
    url: '',
    verifiedType: 'blue',
    followShare: 0.05,
    topic: 'Technology',
    tweets: [
      {
        key: 'jack_first',
        text: 'just setting up my twttr',
        ageHours: 0,
        legacy: { id: '20', at: utc(2006, 3, 21, 20, 50, 14) },
        replies: 12,
        pinned: true,
      },
      { key: 'jack_build', text: 'the most important thing is to keep building', ageHours: 72, replies: 30 },
      {
        key: 'jack_btc',
        text: 'bitcoin is the native currency of the internet $BTC #Bitcoin',
        ageHours: 30,
        replies: 20,
      },
      { key: 'jack_deleted', text: 'testing something, ignore', ageHours: 6, deleted: true },
    ],
  },
  {
    username: 'xsvc_demo',
    name: 'xsvc demo',
    createdAt: utc(2024, 1, 15, 9),
    description: 'The demo account of the xsvc toolkit: giveaways, test tweets and everything in between.',
    location: 'Remote',
    url: 'https://xsvc.example.com',
    verifiedType: 'business',
    followShare: 0.01,
    topic: 'Technology',
    tweets: [
      {
        key: 'giveaway',
        text:
          '🎉 Giveaway time! Reply with your favourite #TypeScript tip and follow @xsvc_demo to enter. ' +
          'Three winners are drawn on Friday.',
        ageHours: 48,
        replies: 'giveaway',
        pinned: true,
      },
      {
        key: 'hello',
        text: 'Hello world! This is the demo account of the xsvc toolkit: monitors, draws and extractions on one machine.',
        ageHours: 24 * 20,
        replies: 8,
      },
      {
        key: 'poll',
        text: 'Which runtime do you deploy on? #WebDev',
        ageHours: 10,
        poll: ['Node.js', 'Deno', 'Bun', 'Workers'],
        replies: 6,
      },
      {
        key: 'photos',
        text: 'First look at the new dashboard 👀',
        ageHours: 100,
        media: ['photo', 'photo'],
        replies: 5,
      },
      {
        key: 'video',
        text: 'Two-minute demo of keyword monitors',
        ageHours: 150,
        media: ['video'],
        replies: 4,
      },
      {
        key: 'thread',
        text: 'How do draws pick winners? A short thread 🧵',
        ageHours: 200,
        thread: [
          '1/ Every reply to the tweet is an entry; replies from the same account count once.',
          '2/ Filters drop entries: accounts that do not follow, accounts younger than N days, suspended ones.',
          '3/ Winners and backups are drawn from what is left, with a seed you can publish.',
        ],
        replies: 3,
      },
      { key: 'demo_deleted', text: 'oops, wrong account', ageHours: 5, deleted: true },
      {
        key: 'changelog',
        text: 'Changelog: everything new in xsvc this month.',
        note: 1_800,
        ageHours: 300,
        replies: 2,
      },
    ],
  },
  {
    username: 'newsroom',
    name: 'Newsroom',
    createdAt: utc(2009, 6, 2, 8),
    description: 'Breaking news and long reads from around the world. Tips: tips@newsroom.example.com',
    location: 'New York, NY',
    url: 'https://newsroom.example.com',
    verifiedType: 'business',
    followShare: 0.03,
    topic: 'Science',
    tweets: [
      {
        key: 'breaking',
        text: "BREAKING: Scientists confirm water ice near the Moon's south pole #Space",
        ageHours: 3,
        link: 'https://newsroom.example.com/science/moon-water-ice',
        replies: 25,
      },
      {
        key: 'article',
        text: 'Long read: how cities are adapting to hotter summers',
        ageHours: 40,
        replies: 10,
        article: {
          title: 'How cities are adapting to hotter summers',
          body:
            'Cities are planting trees, painting roofs white and opening cooling centres.\n' +
            'Urban heat islands can be several degrees warmer than the countryside around them.\n' +
            'Planners now treat shade as infrastructure, as essential as water and power.',
        },
      },
      {
        key: 'markets',
        text: 'Markets close higher as $SPY hits a record #Markets',
        ageHours: 20,
        replies: 8,
      },
      { key: 'live', text: 'Live: election night coverage', ageHours: 60, media: ['video'], replies: 15 },
    ],
  },
  {
    username: 'locked_account',
    name: 'Locked Account',
    createdAt: utc(2015, 9, 9, 18),
    description: 'Protected tweets. Friends only.',
    location: 'Lisbon, Portugal',
    url: '',
    verifiedType: null,
    protected: true,
    followShare: 0.0005,
    topic: 'Travel',
    tweets: [
      { key: 'locked_1', text: 'Private thoughts, only for my followers', ageHours: 12, replies: 4 },
      { key: 'locked_2', text: 'Sunset from the balcony tonight #Sunset', ageHours: 50, media: ['photo'] },
    ],
  },
  {
    username: 'suspended_acct',
    name: 'Totally Legit Deals',
    createdAt: utc(2023, 4, 1, 3),
    description: 'Best deals, DM for promo',
    location: '',
    url: 'https://deals.example.net',
    verifiedType: null,
    suspended: true,
    followShare: 0.002,
    topic: 'Business',
    tweets: [
      {
        key: 'spam',
        text: 'Buy followers now!!! Cheap and fast',
        ageHours: 500,
        link: 'https://deals.example.net/buy',
        replies: 3,
      },
    ],
  },
  {
    username: 'blue_creator',
    name: 'Mia Creates',
    createdAt: utc(2019, 2, 14, 15),
    description: 'Video essays on design and technology. New episode every Tuesday.',
    location: 'Berlin, Germany',
    url: 'https://mia.example.com',
    verifiedType: 'blue',
    followShare: 0.01,
    topic: 'Entertainment',
    tweets: [
      {
        key: 'episode',
        text: 'New episode is out now! #NowPlaying',
        ageHours: 26,
        media: ['animated_gif'],
        replies: 12,
      },
      {
        key: 'essay',
        text: 'Why every interface is a promise. An essay.',
        note: 4_200,
        ageHours: 90,
        replies: 6,
      },
    ],
  },
  {
    username: 'gov_agency',
    name: 'Weather Service',
    createdAt: utc(2011, 11, 3, 10),
    description: 'Official forecasts and warnings.',
    location: 'Washington, DC',
    url: 'https://weather.example.gov',
    verifiedType: 'government',
    followShare: 0.01,
    topic: 'Science',
    tweets: [
      {
        key: 'warning',
        text: 'Heat advisory in effect until Friday 8 PM. Stay hydrated and check on neighbours. #Climate',
        ageHours: 8,
        replies: 9,
      },
    ],
  },
];

/** Tips the giveaway's entries are made of. */
export const GIVEAWAY_TIPS = [
  'Use `satisfies` to check a config object without widening it',
  'Turn on noUncheckedIndexedAccess, it catches real bugs',
  'Prefer unions of string literals to enums',
  'Let zod schemas be the source of your types',
  'Use `as const` for lookup tables',
  'Never use `any`; reach for `unknown` and narrow',
  'Branded types for ids save hours of debugging',
  'exactOptionalPropertyTypes makes undefined honest',
] as const;
