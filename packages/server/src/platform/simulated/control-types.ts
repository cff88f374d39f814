import type { MediaType } from './media.js';

// What the simulated platform's control endpoints take: new accounts, profile patches, new tweets.

/** The verification types an account may carry. */
export type VerifiedType = 'blue' | 'business' | 'government';

/** A new account (`POST /sim/users`). */
export interface CreateUserInput {
  username: string;
  name?: string;
  description?: string;
  location?: string;
  url?: string;
  profilePicture?: string;
  coverPicture?: string;
  verifiedType?: VerifiedType | null;
  protected?: boolean;
  /** Epoch ms; defaults to now. */
  createdAt?: number;
}

/** A profile change: any field, a rename, protection, suspension, verification, the pinned tweet. */
export interface UpdateUserPatch {
  username?: string;
  name?: string;
  description?: string;
  location?: string;
  url?: string;
  profilePicture?: string;
  coverPicture?: string;
  /** `false` removes the check mark; `true` grants `blue` unless `verifiedType` says otherwise. */
  verified?: boolean;
  verifiedType?: VerifiedType | null;
  protected?: boolean;
  suspended?: boolean;
  /** A lock (the platform wants the owner to prove who they are): writes and private reads are refused. */
  locked?: boolean;
  pinnedTweetId?: string | null;
}

/** A new tweet: an original, a reply, a quote, a repost (`retweetOfId`, nothing else), with media or a poll. */
export interface CreateTweetInput {
  /** The author: id, username or profile URL. */
  author: string;
  text?: string;
  inReplyToId?: string;
  quotedTweetId?: string;
  retweetOfId?: string;
  /** 1 to 4 items; `url` is the media's own URL (generated when absent). */
  media?: { type: MediaType; url?: string }[];
  /** 2 to 4 options of at most 25 characters; open for `durationMinutes` (default a day). */
  poll?: { options: string[]; durationMinutes?: number };
  lang?: string;
  communityId?: string;
  source?: string;
}
