/**
 * How `xsvc --help` groups the top-level commands, with a one-line summary for each, as a person would
 * look for them: the daily work first, then the account, then the rest. Hand-written (a summary says what
 * a resource is for, which no operation says); a resource missing here still appears, under "Additional
 * commands" with its actions as summary, and `test/help.test.ts` asks for it to be added. Kept free of
 * imports: the top-level help loads it on every start.
 */

/** A group heading of the top-level help, in the order shown. */
export const GROUPS = [
  'Core commands:',
  'Account commands:',
  'Additional commands:',
  'Service and developer commands:',
] as const;

/** A group heading. */
export type Group = (typeof GROUPS)[number];

/** Each top-level command's group and summary, in the order shown within its group. */
export const COMMAND_GROUPS: Readonly<Record<string, readonly [Group, string]>> = {
  tweets: ['Core commands:', 'Search, read and post tweets; likes, reposts, replies and quotes'],
  users: ['Core commands:', 'Look up users, their tweets and followers; follow and unfollow'],
  monitors: ['Core commands:', 'Watch accounts and keywords: each new tweet or change becomes an event'],
  events: ['Core commands:', 'The events your monitors stored, to read or backfill'],
  webhooks: ['Core commands:', 'Deliver events to your endpoint; listen and trigger them locally'],
  extractions: ['Core commands:', 'Bulk-extract followers, replies, likes and more, and export them'],
  draws: ['Core commands:', 'Pick giveaway winners from the replies of a tweet, verifiably'],

  whoami: ['Account commands:', 'Show the account, plan, key and base URL in use'],
  auth: ['Account commands:', 'Check how you are signed in (`auth status`)'],
  login: ['Account commands:', 'Save an API key in a profile, checked with the service first'],
  logout: ['Account commands:', 'Remove the API key of a profile'],
  profiles: ['Account commands:', 'List, switch and remove saved profiles'],
  account: ['Account commands:', 'Your account: plan, credit balance, locale'],
  'api-keys': ['Account commands:', 'Create, list and revoke API keys'],
  credits: ['Account commands:', 'Credit balance, top-ups and auto top-up'],
  subscriptions: ['Account commands:', 'Start a subscription checkout'],
  'x-accounts': ['Account commands:', 'Connect platform accounts that writes and private reads act as'],
  'guest-wallets': ['Account commands:', 'Accountless prepaid wallets for paid reads'],

  compose: ['Additional commands:', 'Write a post with the compose tool'],
  drafts: ['Additional commands:', 'Save and manage post drafts'],
  styles: ['Additional commands:', 'Analyze and compare the writing style of accounts'],
  radar: ['Additional commands:', 'Trending topics from curated sources'],
  trends: ['Additional commands:', 'Trending hashtags and topics of a region'],
  timeline: ['Additional commands:', 'The home timeline of a connected account'],
  bookmarks: ['Additional commands:', 'Bookmarks and bookmark folders of a connected account'],
  notifications: ['Additional commands:', 'Notifications of a connected account'],
  dms: ['Additional commands:', 'Send and read direct messages'],
  media: ['Additional commands:', 'Upload media; download the media of tweets'],
  profile: ['Additional commands:', 'Change the name, bio, picture or banner of a connected account'],
  communities: ['Additional commands:', 'Create, join and read communities'],
  lists: ['Additional commands:', 'Members, followers and tweets of lists'],
  articles: ['Additional commands:', 'Read an article posted on the platform'],
  jobs: ['Additional commands:', 'Read a job listing posted on the platform'],
  'write-actions': ['Additional commands:', 'Follow a durable write until it is final'],
  support: ['Additional commands:', 'Open and follow support tickets'],

  ask: ['Service and developer commands:', 'Ask the documentation a question'],
  api: ['Service and developer commands:', "Send any request with the profile's key (the raw escape hatch)"],
  server: ['Service and developer commands:', 'Run a local xsvc server'],
  discovery: ['Service and developer commands:', 'OpenAPI, API catalog, OAuth metadata and health'],
  oauth: ['Service and developer commands:', 'OAuth 2.1 clients and tokens (for MCP agents)'],
  completion: ['Service and developer commands:', 'Print a shell completion script (bash, zsh, fish)'],
  help: ['Service and developer commands:', 'Help on a command or a topic (exit-codes, environment, output)'],
};

/** The examples of `xsvc --help`: from signing in to a delivered webhook. */
export const TOP_EXAMPLES: readonly string[] = [
  'xsvc login',
  'xsvc whoami',
  'xsvc users get jack',
  'xsvc tweets search "from:jack" --limit 20',
  'xsvc monitors create jack --events tweet.new,tweet.reply',
  'xsvc webhooks listen --forward-to http://127.0.0.1:3000/hook',
];

/** The "Learn more" lines of `xsvc --help`. */
export const LEARN_MORE: readonly string[] = [
  'Use `xsvc <command> --help` for its actions, and `xsvc <command> <action> --help` for one of them.',
  'Topics: `xsvc help environment`, `xsvc help exit-codes`, `xsvc help output`.',
  'Guide: docs/guides/cli.md. Every operation, with its CLI, SDK and curl forms: docs/reference/index.md.',
];

/** The order of a top-level command in the help: by group, then as listed above; unknown ones last. */
export function commandRank(name: string): number {
  const keys = Object.keys(COMMAND_GROUPS);
  const i = keys.indexOf(name);
  // An unknown one goes at the end of "Additional commands:", before the first service command.
  return i >= 0 ? i : keys.findIndex((k) => COMMAND_GROUPS[k]![0] === GROUPS[3]) - 0.5;
}
