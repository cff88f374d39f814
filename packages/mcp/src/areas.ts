import type { AnyOperation, Tag } from '@xsvc/sdk/contract';

/** Every toolset name, in listing order (`--toolsets tweets,users`). */
export const TOOLSETS = [
  'tweets',
  'users',
  'lists',
  'communities',
  'trends',
  'monitors',
  'events',
  'webhooks',
  'extractions',
  'draws',
  'compose',
  'writes',
  'x_accounts',
  'account',
  'support',
  'media',
] as const;

/** A toolset name. */
export type ToolsetName = (typeof TOOLSETS)[number];

/**
 * An area of the service: one toolset, served as a read tool and (when writes are enabled) a write tool, so
 * that each tool's annotations stay truthful. Which operations an area holds comes from the contract's tags;
 * only the grouping, the names and a one-line description are written here.
 */
export interface Area {
  readonly name: ToolsetName;
  readonly title: string;
  /** The reference tags whose operations the area serves. */
  readonly tags: readonly Tag[];
  /** Operations of other tags served here too, by id. */
  readonly extra?: readonly string[];
  /** SDK path segments stripped from action names (`tweets.search` → `search`). */
  readonly home: readonly string[];
  /** Action names that the rule above would make unclear, by operation id. */
  readonly rename?: Readonly<Record<string, string>>;
  /** What the area is about, for the read tool's description. */
  readonly about: string;
  /** What its write tool does, when the area has writes. */
  readonly writeAbout?: string;
  /** Name of the read tool (default: the area name). */
  readonly readTool?: string;
  /** Name of the write tool (default: `<area>_write`). */
  readonly writeTool?: string;
}

/** Every area, one per toolset, in the order tools are listed. */
export const AREAS: readonly Area[] = [
  {
    name: 'tweets',
    title: 'Tweets',
    tags: ['Tweets', 'Articles'],
    home: ['tweets'],
    about:
      'Tweets: lookup, search, replies, quotes, threads, likers, bookmarks, timeline, articles, viral score.',
  },
  {
    name: 'users',
    title: 'Users',
    tags: ['Users'],
    home: ['users'],
    about: 'Users: profiles, search, followers, following, their tweets, notifications, DM history, jobs.',
  },
  {
    name: 'lists',
    title: 'Lists',
    tags: ['Lists'],
    home: ['lists'],
    about: 'Lists: members, followers and tweets.',
  },
  {
    name: 'communities',
    title: 'Communities',
    tags: ['Communities'],
    home: ['communities'],
    about: 'Communities: info, members, moderators, tweets, keyword search.',
  },
  {
    name: 'trends',
    title: 'Trends',
    tags: ['Trends'],
    home: ['trends'],
    rename: { getXTrends: 'get' },
    about: 'Trending hashtags and topics of a region.',
  },
  {
    name: 'monitors',
    title: 'Monitors',
    tags: ['Monitors'],
    home: ['monitors'],
    about: 'Monitors that watch accounts or search queries and store events.',
    writeAbout: 'Create, change, pause or delete account and keyword monitors.',
  },
  {
    name: 'events',
    title: 'Events',
    tags: ['Events'],
    home: ['events'],
    about: 'Events stored by monitors.',
  },
  {
    name: 'webhooks',
    title: 'Webhooks',
    tags: ['Webhooks'],
    home: ['webhooks'],
    about: 'Webhooks: signed event deliveries to HTTPS endpoints.',
    writeAbout: 'Register, change, test, resume or deactivate webhooks.',
  },
  {
    name: 'extractions',
    title: 'Extractions',
    tags: ['Extractions'],
    home: ['extractions'],
    about: 'Extraction jobs: bulk lists of users or tweets, with price estimates and paged results.',
    writeAbout: 'Start an extraction job (spends credits per result).',
  },
  {
    name: 'draws',
    title: 'Draws',
    tags: ['Draws'],
    home: ['draws'],
    about: 'Giveaway draws: random winners among the replies of a tweet.',
    writeAbout: 'Run a giveaway draw, or fix its seed in advance (a commitment to publish).',
  },
  {
    name: 'compose',
    title: 'Compose',
    tags: ['Composition'],
    home: ['compose'],
    about: 'Writing help: compose steps, drafts, writing styles, trend radar.',
    writeAbout: 'Save or delete drafts; analyze, save or delete writing styles.',
  },
  {
    name: 'writes',
    title: 'X Write',
    tags: ['X Write'],
    home: ['writeActions'],
    about: 'State of durable writes (by id).',
    writeAbout:
      'Write through a connected account: tweets, likes, reposts, follows, DMs, media, profile, communities. Waits for the outcome; a write still pending reports its id for write_actions.',
    readTool: 'write_actions',
    writeTool: 'x_write',
  },
  {
    name: 'x_accounts',
    title: 'Connected accounts',
    tags: ['X Accounts'],
    home: ['xAccounts'],
    about: 'Connected platform accounts that perform writes and private reads.',
    writeAbout: 'Disconnect accounts, or retry those held back.',
  },
  {
    name: 'account',
    title: 'Account',
    tags: ['Account', 'API Keys', 'Subscribe'],
    home: ['account'],
    about: 'The service account: plan, credits, API keys, subscription.',
    writeAbout: 'Change account settings; open a subscription or credit checkout (a person pays there).',
  },
  {
    name: 'support',
    title: 'Support',
    tags: ['Support'],
    extra: ['askQuery'],
    home: ['support'],
    about: 'Support tickets, and questions to the documentation.',
    writeAbout: 'Open, reply to, resolve or close support tickets.',
  },
  {
    name: 'media',
    title: 'Media',
    tags: ['Media'],
    home: ['media'],
    about: 'Media of tweets gathered into a download gallery.',
  },
];

/** The area serving an operation, or undefined when no area claims it. */
export function areaOf(op: AnyOperation): Area | undefined {
  return AREAS.find((a) => a.tags.includes(op.tag) || a.extra?.includes(op.id) === true);
}

/** The names of an area's two tools. */
export function toolNames(area: Area): { read: string; write: string } {
  return { read: area.readTool ?? area.name, write: area.writeTool ?? `${area.name}_write` };
}
