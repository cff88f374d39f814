import type { Tag } from '@xsvc/sdk/contract';

/**
 * One line per tag of the document (OpenAPI tooling shows it above the tag's operations; Redocly's
 * recommended rules require it). A `Record` over the contract's `Tag`, so a new tag cannot go undescribed.
 */
export const TAG_DESCRIPTIONS: Readonly<Record<Tag, string>> = {
  'API Keys': 'Create, list and revoke the API keys of an account (owner only).',
  Account: 'The account: plan, monitor billing, credits, linked platform identity and settings.',
  'Agent Discovery':
    'Public documents for tools and agents: OpenAPI, the API catalog, OAuth metadata, health and documentation search.',
  Articles: 'Long-form articles published on the platform.',
  Communities: 'Platform communities: information, members, moderators and posts.',
  Composition:
    'Write better posts: the compose, refine and score steps, radar trends, drafts and writing styles.',
  Draws: 'Giveaway draws among the replies of a post, with filters, winners and exports.',
  Events: 'Events stored by the monitors, for polling and backfill.',
  Extractions: 'Asynchronous bulk extraction jobs (23 tool types), their results and exports.',
  'Guest Wallets': 'Accountless prepaid wallets: a guest key that pays for the read-only paid routes.',
  Lists: 'Platform lists: members, followers and posts.',
  Media: 'Media of posts: download links and galleries.',
  Monitors: 'Account and keyword monitors, billed hourly while active.',
  Subscribe: 'Start or resume the subscription.',
  Support: 'Support tickets, their messages and attachments.',
  Trends: 'Trending topics by region.',
  Tweets: 'Read posts: lookup, search, replies, quotes, reposts, threads and analysis.',
  Users: 'Read users: profiles, followers, following, timelines, likes and relationships.',
  Webhooks: 'Signed webhook endpoints that receive monitor events, with deliveries, tests and resume.',
  'X Accounts': 'Connected platform accounts that the write operations act through.',
  'X Write':
    'Durable writes through a connected account: posts, likes, follows, DMs, media, profile, communities.',
};
