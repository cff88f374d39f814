import { z } from 'zod';
import { IsoDateTime } from './zod-helpers.js';

/** The ten tweet event types (spec 6.1). Keyword monitors support only these. */
export const TWEET_EVENT_TYPES = [
  'tweet.new',
  'tweet.reply',
  'tweet.retweet',
  'tweet.quote',
  'tweet.media',
  'tweet.link',
  'tweet.poll',
  'tweet.mention',
  'tweet.hashtag',
  'tweet.longform',
] as const;

/** The eleven profile-change event types (spec 6.1). */
export const PROFILE_EVENT_TYPES = [
  'profile.avatar.changed',
  'profile.banner.changed',
  'profile.name.changed',
  'profile.username.changed',
  'profile.bio.changed',
  'profile.location.changed',
  'profile.url.changed',
  'profile.verified.changed',
  'profile.protected.changed',
  'profile.pinned_tweet.changed',
  'profile.unavailable.changed',
] as const;

/** All 21 event types that monitors and webhooks accept. */
export const EVENT_TYPES = [...TWEET_EVENT_TYPES, ...PROFILE_EVENT_TYPES] as const;

export type TweetEventType = (typeof TWEET_EVENT_TYPES)[number];
export type ProfileEventType = (typeof PROFILE_EVENT_TYPES)[number];
export type EventType = (typeof EVENT_TYPES)[number];

/** The synthetic type sent by the webhook test operation; never stored, never accepted in `eventTypes`. */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test';

export const EventTypeSchema = z.enum(EVENT_TYPES);
export const TweetEventTypeSchema = z.enum(TWEET_EVENT_TYPES);

/** `eventTypes` of a monitor or webhook: at least one, no duplicates. */
export const EventTypeArray = z
  .array(EventTypeSchema)
  .min(1, 'at least one event type is required')
  .refine((a) => new Set(a).size === a.length, 'event types must not repeat');

/** `eventTypes` of a keyword monitor: tweet types only. */
export const TweetEventTypeArray = z
  .array(TweetEventTypeSchema)
  .min(1, 'at least one event type is required')
  .refine((a) => new Set(a).size === a.length, 'event types must not repeat');

/** The author block of a delivered tweet (spec 6.3). */
export const EventTweetAuthorSchema = z.object({ id: z.string(), userName: z.string(), name: z.string() });

/** `data` of a tweet event: the raw tweet, at least these fields (spec 6.3). */
export const TweetEventDataSchema = z.looseObject({
  id: z.string(),
  text: z.string(),
  author: EventTweetAuthorSchema,
  isRetweet: z.boolean(),
  isReply: z.boolean(),
  isQuote: z.boolean(),
  createdAt: z.string(),
  inReplyToId: z.string().optional(),
  quoted_tweet: z
    .looseObject({ id: z.string(), text: z.string(), author: EventTweetAuthorSchema })
    .optional(),
});

/** `data` of a profile-change event: which field changed, its old and new values, and the profile now. */
export const ProfileEventDataSchema = z.looseObject({
  userId: z.string(),
  username: z.string(),
  field: z.string(),
  previous: z.unknown(),
  current: z.unknown(),
});

/** The payload of a delivered monitor event (spec 6.3). */
export const WebhookEventPayloadSchema = z.object({
  eventType: EventTypeSchema,
  schemaVersion: z.literal(1),
  deliveryId: z.string(),
  streamEventId: z.string(),
  occurredAt: IsoDateTime,
  username: z.string().optional(),
  query: z.string().optional(),
  data: z.record(z.string(), z.unknown()),
});

/** The payload of `webhook.test` (spec 6.3): no `deliveryId` or `streamEventId`. */
export const WebhookTestPayloadSchema = z.object({
  eventType: z.literal(WEBHOOK_TEST_EVENT_TYPE),
  data: z.object({ message: z.string() }),
  timestamp: IsoDateTime,
});

export type TweetEventData = z.infer<typeof TweetEventDataSchema>;
export type ProfileEventData = z.infer<typeof ProfileEventDataSchema>;
