import { WEBHOOK_TEST_EVENT_TYPE } from '@xsvc/sdk/contract';
import type { WebhookEvent } from '@xsvc/webhook-verifier';
import { PAYLOAD_SCHEMA_VERSION } from './delivery.js';
import { TRIGGER_TYPES, type TriggerType } from './event-types.js';

export { TRIGGER_TYPES, type TriggerType };

/**
 * Realistic sample payloads for `xsvc webhooks trigger`: one per event type (the 21 monitor types of spec
 * 6.1 and `webhook.test`), shaped like real deliveries (spec 6.3) so a receiver can be exercised before any
 * monitor fires. Tweet data carries the fields every tweet event has, plus what its type is about.
 */

/** What varies between two samples of one type. */
export interface SampleSeed {
  /** Epoch ms of the event. */
  readonly now: number;
  readonly deliveryId: string;
  /** A fresh numeric id (tweets, the stored event). */
  readonly nextId: () => string;
}

const AUTHOR = { id: '1587651021839732736', userName: 'xsvc_demo', name: 'Xsvc Demo' } as const;
const OTHER = { id: '783214', userName: 'platform_news', name: 'Platform News' } as const;

type Data = Record<string, unknown>;

function tweetData(seed: SampleSeed, iso: string, text: string, extra: Data = {}): Data {
  const id = seed.nextId();
  return {
    id,
    text,
    author: AUTHOR,
    isRetweet: false,
    isReply: false,
    isQuote: false,
    createdAt: iso,
    url: `https://x.com/${AUTHOR.userName}/status/${id}`,
    lang: 'en',
    likeCount: 42,
    retweetCount: 7,
    replyCount: 3,
    quoteCount: 1,
    viewCount: 1830,
    ...extra,
  };
}

function nested(seed: SampleSeed, text: string): Data {
  return { id: seed.nextId(), text, author: OTHER };
}

const LONG_TEXT = [
  'Shipping notes from this week, the long version.',
  'We moved every background job onto one leased jobs table, so a restart never loses work and two instances never do the same job twice.',
  'Webhook deliveries now retry on the documented schedule (1, 2, 4, 8, 16, 32 seconds, then every minute) and stop at once on a 410.',
  'The events endpoint doubles as the recovery path: page with after until hasMore is false and reprocess what failed.',
  'Next week: exports in seven formats and a faster draw.',
].join('\n\n');

const TWEET_SAMPLES: Record<string, (seed: SampleSeed, iso: string) => Data> = {
  'tweet.new': (s, iso) => tweetData(s, iso, 'Small releases beat big launches. Shipped three today.'),
  'tweet.reply': (s, iso) => {
    const parent = s.nextId();
    return tweetData(s, iso, `@${OTHER.userName} Thanks, the fix is live now.`, {
      isReply: true,
      inReplyToId: parent,
      inReplyToUserId: OTHER.id,
      inReplyToUsername: OTHER.userName,
      conversationId: parent,
    });
  },
  'tweet.retweet': (s, iso) => {
    const original = nested(s, 'The API now signs every webhook with HMAC-SHA256.');
    return tweetData(s, iso, `RT @${OTHER.userName}: ${String(original.text)}`, {
      isRetweet: true,
      retweeted_tweet: original,
      retweetedAt: iso,
    });
  },
  'tweet.quote': (s, iso) =>
    tweetData(s, iso, 'This is the part most webhook receivers get wrong.', {
      isQuote: true,
      isQuoteStatus: true,
      quoted_tweet: nested(s, 'Verify the raw body, not the parsed JSON.'),
    }),
  'tweet.media': (s, iso) =>
    tweetData(s, iso, 'New dashboard, first look https://t.co/a1B2c3D4e5', {
      media: [
        {
          type: 'photo',
          mediaUrl: 'https://pbs.twimg.com/media/GxSvcDemo01.jpg',
          url: 'https://t.co/a1B2c3D4e5',
          width: 1600,
          height: 900,
        },
      ],
    }),
  'tweet.link': (s, iso) =>
    tweetData(s, iso, 'How we test webhooks without a public URL: https://t.co/L1nkS4mpl3', {
      entities: {
        urls: [
          {
            url: 'https://t.co/L1nkS4mpl3',
            expandedUrl: 'https://example.com/blog/local-webhooks',
            displayUrl: 'example.com/blog/local-webh…',
          },
        ],
      },
    }),
  'tweet.poll': (s, iso) =>
    tweetData(s, iso, 'Which export format do you use most?', {
      poll: {
        options: [
          { label: 'CSV', votes: 128 },
          { label: 'JSON', votes: 96 },
          { label: 'XLSX', votes: 41 },
          { label: 'PDF', votes: 12 },
        ],
        endsAt: new Date(Date.parse(iso) + 86_400_000).toISOString(),
        votingStatus: 'open',
      },
    }),
  'tweet.mention': (s, iso) =>
    tweetData(s, iso, `Great write-up by @${OTHER.userName} on signed webhooks.`, {
      entities: { mentions: [{ id: OTHER.id, username: OTHER.userName }] },
    }),
  'tweet.hashtag': (s, iso) =>
    tweetData(s, iso, 'Day 30 of building in public. #buildinpublic #devtools', {
      entities: { hashtags: [{ text: 'buildinpublic' }, { text: 'devtools' }] },
    }),
  'tweet.longform': (s, iso) => tweetData(s, iso, LONG_TEXT, { isNoteTweet: true }),
};

/** For each profile type: the changed field of the profile record, its value before and after. */
const PROFILE_CHANGES: Record<string, readonly [field: string, previous: unknown, current: unknown]> = {
  'profile.avatar.changed': [
    'profilePicture',
    'https://pbs.twimg.com/profile_images/1/old_normal.jpg',
    'https://pbs.twimg.com/profile_images/2/new_normal.jpg',
  ],
  'profile.banner.changed': [
    'coverPicture',
    'https://pbs.twimg.com/profile_banners/1587651021839732736/1700000000',
    'https://pbs.twimg.com/profile_banners/1587651021839732736/1777000000',
  ],
  'profile.name.changed': ['name', 'Xsvc Demo', 'Xsvc Demo (shipping)'],
  'profile.username.changed': ['username', 'xsvc_demo_old', AUTHOR.userName],
  'profile.bio.changed': [
    'description',
    'Building things.',
    'Building a toolkit for social data. Opinions mine.',
  ],
  'profile.location.changed': ['location', 'Berlin', 'Lisbon'],
  'profile.url.changed': ['url', 'https://example.com', 'https://example.com/docs'],
  'profile.verified.changed': ['verified', false, true],
  'profile.protected.changed': ['protected', false, true],
  'profile.pinned_tweet.changed': ['pinnedTweetIds', [], ['1790000000000000042']],
  'profile.unavailable.changed': ['unavailable', false, true],
};

function profileData(type: string): Data {
  const [field, previous, current] = PROFILE_CHANGES[type]!;
  return {
    userId: AUTHOR.id,
    username: AUTHOR.userName,
    field,
    previous,
    current,
    profile: { id: AUTHOR.id, username: AUTHOR.userName, name: AUTHOR.name, [field]: current },
  };
}

/** A sample payload of `type`, as the service would deliver it for an account monitor of `@xsvc_demo`. */
export function samplePayload(type: TriggerType, seed: SampleSeed): WebhookEvent {
  const iso = new Date(seed.now).toISOString();
  if (type === WEBHOOK_TEST_EVENT_TYPE) {
    return {
      eventType: 'webhook.test',
      data: { message: 'This is a test delivery from xsvc.' },
      timestamp: iso,
    };
  }
  const tweet = TWEET_SAMPLES[type];
  return {
    eventType: type,
    schemaVersion: PAYLOAD_SCHEMA_VERSION,
    deliveryId: seed.deliveryId,
    streamEventId: seed.nextId(),
    occurredAt: iso,
    username: AUTHOR.userName,
    data: tweet ? tweet(seed, iso) : profileData(type),
  };
}

/** Snowflake-like ids (a big integer string per spec 2.1) from a clock, unique within one process. */
export function snowflakeIds(now: number): () => string {
  let sequence = 0;
  const base = BigInt(Math.max(0, now - 1_288_834_974_657)) << 22n;
  return () => String(base + BigInt(sequence++));
}
