// Generated from the contract by scripts/contract-options.ts. Do not edit by hand:
// after a contract change, run `pnpm generate` (at the root of the repository) and commit.

import type { InteractiveOptionSpec } from './types.js';

/** Flags of `extractions run`: every body field of an extraction but `toolType`. */
export const extractionFlags: readonly InteractiveOptionSpec[] = [
  {
    "flag": "--target-tweet-id <target-tweet-id>",
    "key": "targetTweetId",
    "type": "string",
    "description": "Tweet to read, for reply, repost, quote, thread, article and favoriter extraction.",
    "required": false
  },
  {
    "flag": "--target-username <target-username>",
    "key": "targetUsername",
    "type": "string",
    "description": "Account to read (a leading @ is stripped), for follower, following, mention, post, like and media tools.",
    "required": false
  },
  {
    "flag": "--target-community-id <target-community-id>",
    "key": "targetCommunityId",
    "type": "string",
    "description": "Community to read, for the community tools.",
    "required": false
  },
  {
    "flag": "--target-list-id <target-list-id>",
    "key": "targetListId",
    "type": "string",
    "description": "List to read, for the list member, post and follower tools.",
    "required": false
  },
  {
    "flag": "--target-space-id <target-space-id>",
    "key": "targetSpaceId",
    "type": "string",
    "description": "Space to read, for `space_explorer`.",
    "required": false
  },
  {
    "flag": "--search-query <search-query>",
    "key": "searchQuery",
    "type": "string",
    "description": "Search text, for people, community and tweet search.",
    "required": false
  },
  {
    "flag": "--target-tweet-ids <target-tweet-ids...>",
    "key": "targetTweetIds",
    "type": "string[]",
    "description": "Tweets to read (reference multi-target form of `targetTweetId`).",
    "required": false
  },
  {
    "flag": "--target-usernames <target-usernames...>",
    "key": "targetUsernames",
    "type": "string[]",
    "description": "Accounts to read (reference multi-target form of `targetUsername`).",
    "required": false
  },
  {
    "flag": "--target-community-ids <target-community-ids...>",
    "key": "targetCommunityIds",
    "type": "string[]",
    "description": "Communities to read (reference multi-target form of `targetCommunityId`).",
    "required": false
  },
  {
    "flag": "--target-list-ids <target-list-ids...>",
    "key": "targetListIds",
    "type": "string[]",
    "description": "Lists to read (reference multi-target form of `targetListId`).",
    "required": false
  },
  {
    "flag": "--search-queries <search-queries...>",
    "key": "searchQueries",
    "type": "string[]",
    "description": "Search texts (reference multi-target form of `searchQuery`).",
    "required": false
  },
  {
    "flag": "--targets <targets...>",
    "key": "targets",
    "type": "string[]",
    "description": "Mixed targets (reference `ExtractionMixedTarget`): a plain value, or `{ kind, value }`.",
    "required": false
  },
  {
    "flag": "--relation-targets <relation-targets...>",
    "key": "relationTargets",
    "type": "string[]",
    "description": "Relation targets (reference `ExtractionRelationTarget`): `{ relation, value }`.",
    "required": false
  },
  {
    "flag": "--results-limit <results-limit>",
    "key": "resultsLimit",
    "type": "number",
    "description": "Stop after this many results (caps the cost).",
    "required": false
  },
  {
    "flag": "--query-type <query-type>",
    "key": "queryType",
    "type": "string",
    "description": "Search ranking: `Latest` (default for tweet search) or `Top` (default for community search).",
    "required": false,
    "choices": [
      "Latest",
      "Top"
    ]
  },
  {
    "flag": "--include-replies",
    "key": "includeReplies",
    "type": "boolean",
    "description": "Also collect the account’s replies (`post_extractor` only).",
    "required": false
  },
  {
    "flag": "--from-user <from-user>",
    "key": "fromUser",
    "type": "string",
    "description": "Tweet search: only tweets written by this account.",
    "required": false
  },
  {
    "flag": "--to-user <to-user>",
    "key": "toUser",
    "type": "string",
    "description": "Tweet search: only replies addressed to this account.",
    "required": false
  },
  {
    "flag": "--mentioning <mentioning>",
    "key": "mentioning",
    "type": "string",
    "description": "Tweet search: only tweets that mention this account.",
    "required": false
  },
  {
    "flag": "--language <language>",
    "key": "language",
    "type": "string",
    "description": "Tweet search: language code of the tweets (e.g. `en`).",
    "required": false
  },
  {
    "flag": "--since-date <since-date>",
    "key": "sinceDate",
    "type": "string",
    "description": "Tweet search: from this day on, inclusive (YYYY-MM-DD).",
    "required": false
  },
  {
    "flag": "--until-date <until-date>",
    "key": "untilDate",
    "type": "string",
    "description": "Tweet search: before this day, exclusive (YYYY-MM-DD).",
    "required": false
  },
  {
    "flag": "--media-type <media-type>",
    "key": "mediaType",
    "type": "string",
    "description": "Tweet search: only tweets carrying this kind of media (`media` = any).",
    "required": false,
    "choices": [
      "images",
      "videos",
      "gifs",
      "media"
    ]
  },
  {
    "flag": "--min-faves <min-faves>",
    "key": "minFaves",
    "type": "number",
    "description": "Tweet search: at least this many likes.",
    "required": false
  },
  {
    "flag": "--min-retweets <min-retweets>",
    "key": "minRetweets",
    "type": "number",
    "description": "Tweet search: at least this many reposts.",
    "required": false
  },
  {
    "flag": "--min-replies <min-replies>",
    "key": "minReplies",
    "type": "number",
    "description": "Tweet search: at least this many replies.",
    "required": false
  },
  {
    "flag": "--verified-only",
    "key": "verifiedOnly",
    "type": "boolean",
    "description": "Tweet search: only tweets from verified accounts.",
    "required": false
  },
  {
    "flag": "--replies <replies>",
    "key": "replies",
    "type": "string",
    "description": "Tweet search: `include` replies (default), `exclude` them or `only` them.",
    "required": false,
    "choices": [
      "include",
      "exclude",
      "only"
    ]
  },
  {
    "flag": "--retweets <retweets>",
    "key": "retweets",
    "type": "string",
    "description": "Tweet search: `include` reposts (default), `exclude` them or `only` them.",
    "required": false,
    "choices": [
      "include",
      "exclude",
      "only"
    ]
  },
  {
    "flag": "--exact-phrase <exact-phrase>",
    "key": "exactPhrase",
    "type": "string",
    "description": "Tweet search: this exact phrase must appear.",
    "required": false
  },
  {
    "flag": "--exclude-words <exclude-words>",
    "key": "excludeWords",
    "type": "string",
    "description": "Tweet search: comma-separated words that must not appear.",
    "required": false
  },
  {
    "flag": "--advanced-query <advanced-query>",
    "key": "advancedQuery",
    "type": "string",
    "description": "Tweet search: raw search-operator text appended to the query.",
    "required": false
  },
  {
    "flag": "--dedupe-across-targets",
    "key": "dedupeAcrossTargets",
    "type": "boolean",
    "description": "Several targets: an item already collected for an earlier target is not collected again (default true).",
    "required": false
  },
  {
    "flag": "--dedupe-mode <dedupe-mode>",
    "key": "dedupeMode",
    "type": "string",
    "description": "Several targets: `first` keeps an item under the first target that found it (default), `none` collects it once per target, `merge` keeps one result listing every target that found it in `targets`.",
    "required": false,
    "choices": [
      "none",
      "first",
      "merge"
    ]
  }
];

/** Flags of `draws run`: every body field of a draw but `tweetUrl`. */
export const drawFlags: readonly InteractiveOptionSpec[] = [
  {
    "flag": "--winner-count <winner-count>",
    "key": "winnerCount",
    "type": "number",
    "description": "Winners to pick (default 1).",
    "required": false
  },
  {
    "flag": "--backup-count <backup-count>",
    "key": "backupCount",
    "type": "number",
    "description": "Backup winners to pick after the winners.",
    "required": false
  },
  {
    "flag": "--unique-authors-only",
    "key": "uniqueAuthorsOnly",
    "type": "boolean",
    "description": "Count each reply author once, however many times they replied.",
    "required": false
  },
  {
    "flag": "--must-retweet",
    "key": "mustRetweet",
    "type": "boolean",
    "description": "Only authors who also reposted the giveaway tweet are eligible.",
    "required": false
  },
  {
    "flag": "--must-follow-username <must-follow-username>",
    "key": "mustFollowUsername",
    "type": "string",
    "description": "Only followers of this account are eligible (a leading @ is stripped).",
    "required": false
  },
  {
    "flag": "--filter-min-followers <filter-min-followers>",
    "key": "filterMinFollowers",
    "type": "number",
    "description": "Minimum followers an entrant must have.",
    "required": false
  },
  {
    "flag": "--filter-account-age-days <filter-account-age-days>",
    "key": "filterAccountAgeDays",
    "type": "number",
    "description": "Minimum age, in days, of an entrant’s account.",
    "required": false
  },
  {
    "flag": "--filter-language <filter-language>",
    "key": "filterLanguage",
    "type": "string",
    "description": "Only replies in this language code (e.g. `en`).",
    "required": false
  },
  {
    "flag": "--required-keywords <required-keywords...>",
    "key": "requiredKeywords",
    "type": "string[]",
    "description": "Words every eligible reply must contain.",
    "required": false
  },
  {
    "flag": "--required-hashtags <required-hashtags...>",
    "key": "requiredHashtags",
    "type": "string[]",
    "description": "Hashtags every eligible reply must contain, written with the # (e.g. `#giveaway`).",
    "required": false
  },
  {
    "flag": "--required-mentions <required-mentions...>",
    "key": "requiredMentions",
    "type": "string[]",
    "description": "Accounts every eligible reply must mention, written with the @ (e.g. `@friend`).",
    "required": false
  },
  {
    "flag": "--commitment-id <commitment-id>",
    "key": "commitmentId",
    "type": "string",
    "description": "A draw commitment of yours (`createDrawCommitment`), made and published before the giveaway; needs `organiserEntropy`.",
    "required": false
  },
  {
    "flag": "--organiser-entropy <organiser-entropy>",
    "key": "organiserEntropy",
    "type": "string",
    "description": "Your entropy (1-256 characters), mixed with the committed seed; it must hash to the commitment’s `entropyHash` when it has one.",
    "required": false
  }
];

/** The 23 extraction tools. */
export const extractionTools = [
  "article_extractor",
  "community_extractor",
  "community_moderator_explorer",
  "community_post_extractor",
  "community_search",
  "favoriters",
  "follower_explorer",
  "following_explorer",
  "list_follower_explorer",
  "list_member_extractor",
  "list_post_extractor",
  "mention_extractor",
  "people_search",
  "post_extractor",
  "quote_extractor",
  "reply_extractor",
  "repost_extractor",
  "space_explorer",
  "thread_extractor",
  "tweet_search_extractor",
  "user_likes",
  "user_media",
  "verified_follower_explorer"
] as const;

/** The 7 export formats. */
export const exportFormats = [
  "csv",
  "json",
  "md",
  "md-document",
  "pdf",
  "txt",
  "xlsx"
] as const;

/** What a draw export contains. */
export const drawExportTypes = [
  "winners",
  "entries"
] as const;

/** The steps of the compose tool. */
export const composeSteps = [
  "compose",
  "refine",
  "score"
] as const;

/** What a post is written for. */
export const composeGoals = [
  "engagement",
  "followers",
  "authority",
  "conversation"
] as const;

/** Media planned with a post. */
export const composeMediaTypes = [
  "photo",
  "video",
  "none"
] as const;

/** The 21 event types and `webhook.test`. */
export const triggerTypes = [
  "tweet.new",
  "tweet.reply",
  "tweet.retweet",
  "tweet.quote",
  "tweet.media",
  "tweet.link",
  "tweet.poll",
  "tweet.mention",
  "tweet.hashtag",
  "tweet.longform",
  "profile.avatar.changed",
  "profile.banner.changed",
  "profile.name.changed",
  "profile.username.changed",
  "profile.bio.changed",
  "profile.location.changed",
  "profile.url.changed",
  "profile.verified.changed",
  "profile.protected.changed",
  "profile.pinned_tweet.changed",
  "profile.unavailable.changed",
  "webhook.test"
] as const;
