/**
 * The X API v2 wire shapes this platform reads, limited to the fields it requests (see `fields.ts`). Every
 * field but the defaults is optional: X omits a field it has no value for, and older objects lack newer ones.
 */

/** A `public_metrics` block of a post: `repost_count` today, `retweet_count` before 2.167. */
export interface XTweetMetrics {
  repost_count?: number;
  /** @deprecated the name before `repost_count`. */
  retweet_count?: number;
  reply_count?: number;
  like_count?: number;
  quote_count?: number;
  bookmark_count?: number;
  impression_count?: number;
}

/** The `entities` of a post (or of its `note_tweet`). */
export interface XEntities {
  urls?: {
    start?: number;
    end?: number;
    url: string;
    expanded_url?: string;
    display_url?: string;
    media_key?: string;
  }[];
  mentions?: { start?: number; end?: number; username: string; id?: string }[];
  hashtags?: { start?: number; end?: number; tag: string }[];
  cashtags?: { start?: number; end?: number; tag: string }[];
}

/** A reference from a post to another: the post it reposts, quotes or answers. */
export interface XPostReference {
  type: 'retweeted' | 'quoted' | 'replied_to';
  id: string;
}

/** The long-form article of a post (`post.fields=article`); X's description leaves its shape open. */
export interface XArticle {
  title?: string;
  preview_text?: string;
  plain_text?: string;
  cover_media?: string;
  media_entities?: string[];
}

/**
 * A post (`post.fields`, X API v2 as described in 2.167). `referenced_posts` and `note_post` are today's
 * names; `referenced_tweets` and `note_tweet` are the names X answered with before, still read when present.
 */
export interface XTweet {
  id: string;
  text: string;
  created_at?: string;
  author_id?: string;
  community_id?: string;
  conversation_id?: string;
  display_text_range?: number[];
  in_reply_to_user_id?: string;
  lang?: string;
  reply_settings?: string;
  referenced_posts?: XPostReference[];
  /** @deprecated the name before `referenced_posts`. */
  referenced_tweets?: XPostReference[];
  attachments?: { media_keys?: string[]; poll_ids?: string[] };
  entities?: XEntities;
  public_metrics?: XTweetMetrics;
  note_post?: { text: string; entities?: XEntities };
  /** @deprecated the name before `note_post`. */
  note_tweet?: { text: string; entities?: XEntities };
  edit_history_post_ids?: string[];
  article?: XArticle;
  article_title?: string | { title?: string };
}

/** A user (`user.fields`). */
export interface XUser {
  id: string;
  name: string;
  username: string;
  created_at?: string;
  description?: string;
  location?: string;
  url?: string;
  entities?: { url?: { urls?: { url: string; expanded_url?: string }[] } };
  /** With the `pinned_post_id` expansion. */
  pinned_post_id?: string;
  /** @deprecated the user field before the `pinned_post_id` expansion. */
  pinned_tweet_id?: string;
  profile_image_url?: string;
  profile_banner_url?: string;
  protected?: boolean;
  verified?: boolean;
  verified_type?: string;
  withheld?: { country_codes?: string[] };
  public_metrics?: {
    followers_count?: number;
    following_count?: number;
    post_count?: number;
    /** @deprecated the name before `post_count`. */
    tweet_count?: number;
    listed_count?: number;
    like_count?: number;
    media_count?: number;
  };
}

/** A media item (`media.fields`). */
export interface XMedia {
  media_key: string;
  type: string;
  url?: string;
  preview_image_url?: string;
  width?: number;
  height?: number;
  duration_ms?: number;
  alt_text?: string;
  variants?: { bit_rate?: number; content_type: string; url: string }[];
}

/** A poll (`poll.fields`). */
export interface XPoll {
  id: string;
  options: { position: number; label: string; votes?: number }[];
  duration_minutes?: number;
  end_datetime?: string;
  voting_status?: string;
}

/** A list (`list.fields`). */
export interface XList {
  id: string;
  name: string;
  created_at?: string;
  description?: string;
  follower_count?: number;
  member_count?: number;
  owner_id?: string;
  private?: boolean;
}

/** A trend of `GET /2/trends/by/woeid/:woeid`. */
export interface XTrend {
  trend_name: string;
  tweet_count?: number;
}

/** A community (`community.fields`). */
export interface XCommunity {
  id: string;
  name: string;
  description?: string;
  created_at?: string;
  member_count?: number;
  access?: string;
  join_policy?: string;
}

/** The objects that expansions add next to `data` (`posts`; `tweets` before 2.167). */
export interface XIncludes {
  users?: XUser[];
  posts?: XTweet[];
  /** @deprecated the name before `posts`. */
  tweets?: XTweet[];
  media?: XMedia[];
  polls?: XPoll[];
}

/** A problem object (RFC 7807 style), at the top level of an error or inside `errors` of a partial answer. */
export interface XProblem {
  type?: string;
  title?: string;
  detail?: string;
  status?: number;
  value?: string;
  resource_type?: string;
  resource_id?: string;
  parameter?: string;
}

/** Every v2 answer: `data`, `includes`, `meta` (pagination) and partial `errors`. */
export interface XResponse<T> {
  data?: T;
  includes?: XIncludes;
  meta?: { result_count?: number; next_token?: string; previous_token?: string };
  errors?: XProblem[];
}
