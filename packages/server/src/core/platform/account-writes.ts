/**
 * The user-context side of the {@link Platform}: logging in as an account (connect and re-authenticate,
 * spec 2.13, 3.5) and the writes a connected account performs (spec 4.13). Types only; the simulated and
 * xapi platforms implement them.
 */

/** What a login needs. Passwords pass through to the platform and are never stored by the service. */
export interface LoginCredentials {
  /** Username (with or without @) or user id of the account. */
  user: string;
  password: string;
  email?: string | undefined;
  /** The two-factor authenticator secret (base32), when the account uses one. */
  totpSecret?: string | undefined;
  /**
   * An unguessable value the caller binds the login to: a platform that logs in through the account
   * owner's browser (an OAuth authorization) sends it along and hands it back to the caller's callback.
   */
  authorizationState?: string | undefined;
}

/**
 * The outcome of a login step: a session, a request for an e-mailed code (`flow` is the platform's state of
 * the login, to hand back with the code), a browser authorization (the account's owner approves at `url`;
 * the platform's callback brings a code to hand back with `flow`), a rejection, or a platform that cannot
 * log in at all.
 */
export type LoginOutcome =
  | { kind: 'session'; userId: string; username: string; session: string }
  | { kind: 'email_code'; flow: string; username: string; expiresAt: number }
  | { kind: 'authorize'; url: string; flow: string; username: string; expiresAt: number }
  | { kind: 'rejected'; code: 'login_failed' | 'x_login_suspended'; message: string }
  | { kind: 'unavailable'; message: string };

/** The account a write acts as: its platform user id and the session its login gave. */
export interface WriteActor {
  userId: string;
  session: string;
}

/** A file sent with a write (an upload, an avatar or a banner). */
export interface WriteFile {
  bytes: Uint8Array;
  mimeType: string;
}

/** One user-context write, named by its durable action (spec 2.16). */
export type WriteCommand =
  | {
      action: 'create_tweet';
      text?: string | undefined;
      /** Public URLs of the media (an upload's own URL attaches that upload). */
      media?: readonly string[] | undefined;
      replyToId?: string | undefined;
      communityId?: string | undefined;
      isNote?: boolean | undefined;
    }
  | { action: 'delete_tweet' | 'like' | 'unlike' | 'retweet' | 'unretweet'; tweetId: string }
  | { action: 'follow' | 'unfollow' | 'remove_follower'; user: string }
  | { action: 'send_dm'; recipientId: string; text: string; mediaIds?: readonly string[] | undefined }
  | { action: 'upload_media'; file?: WriteFile | undefined; url?: string | undefined; longVideo?: boolean }
  | {
      action: 'update_profile';
      name?: string | undefined;
      description?: string | undefined;
      location?: string | undefined;
      url?: string | undefined;
    }
  | { action: 'update_avatar' | 'update_banner'; file?: WriteFile | undefined; url?: string | undefined }
  | { action: 'create_community'; name: string; description?: string | undefined }
  | { action: 'delete_community'; communityId: string; name: string }
  | { action: 'join_community' | 'leave_community'; communityId: string };

/** The action names of {@link WriteCommand}. */
export type WriteCommandAction = WriteCommand['action'];

/** Media a write produced (an upload). */
export interface WrittenMedia {
  id: string;
  url?: string;
  type?: 'image' | 'gif' | 'video';
  mimeType?: string;
  sizeBytes?: number;
  expiresAt?: string;
}

/** What a performed write produced. */
export interface WriteResult {
  type: 'tweet' | 'direct_message' | 'media' | 'community' | 'state_change';
  /** Id of the created tweet, message, media or community. */
  id?: string;
  url?: string;
  /** For state changes: whether the relation is now on (liked, following, member). */
  active?: boolean;
  /**
   * For state changes: false when the relation already was as asked (a repeated like or repost), so nothing
   * changed on the platform and nothing is charged (an idempotent no-op costs nothing).
   */
  changed?: boolean;
  media?: WrittenMedia;
  communityName?: string;
  /** The user acted on, resolved (follows, direct messages). */
  target?: { id: string; username?: string };
}

/**
 * Why the platform refused a write (spec 7, 422 codes, 401 `x_auth_failure` for a dead session, and 403
 * `account_restricted` for a locked account).
 */
export type WriteRejectionCode =
  | 'x_auth_failure'
  | 'account_restricted'
  | 'x_account_suspended'
  | 'x_account_protected'
  | 'x_account_feature_required'
  | 'x_duplicate_action'
  | 'x_content_too_long'
  | 'x_target_not_found'
  | 'x_reply_not_allowed'
  | 'x_dm_not_allowed'
  | 'x_rejected'
  | 'media_download_failed'
  /** Media fetched from a URL that is not a type the platform takes (415). */
  | 'unsupported_media_type'
  /** Media fetched from a URL that is larger than the platform takes (413). */
  | 'body_too_large';

/**
 * The outcome of a write the platform answered: done, or refused (nothing changed). A write whose outcome is
 * unknown (the answer was lost) throws instead; `PlatformUnavailableError` means it was never sent.
 */
export type WriteOutcome =
  | { ok: true; result: WriteResult }
  | { ok: false; code: WriteRejectionCode; message: string };

/**
 * What a session needs before it is used (`Platform.renewSession`): nothing (`current`), to be replaced by
 * a renewed one (`renewed`: store it, the old one no longer works), or a new login (`refused`: the
 * platform turned the renewal down, the account must be re-authenticated). A renewal the platform could not
 * be reached for throws `PlatformUnavailableError`.
 */
export type SessionRenewal =
  | { kind: 'current' }
  | { kind: 'renewed'; session: string }
  | { kind: 'refused'; message: string };
