import { z } from 'zod';
import { openEnum } from '../zod-helpers.js';

/** The author block of a tweet (spec 2.10). */
export const TweetAuthorSchema = z.object({
  id: z.string().describe('Platform user id of the author.'),
  username: z.string().describe('Username without @.'),
  name: z.string().describe('Display name of the author.'),
  followers: z.number().int().optional().describe('Follower count of the author.'),
  verified: z.boolean().optional().describe('True when the author shows a verification badge.'),
  profilePicture: z.string().optional().describe('URL of the author avatar.'),
});

/** A media item of a tweet (spec 2.10). */
export const TweetMediaSchema = z.object({
  type: openEnum(['photo', 'video', 'animated_gif']).describe('`photo`, `video` or `animated_gif`.'),
  mediaUrl: z.string().describe('Direct URL of the image, or of the video poster.'),
  url: z.string().optional().describe('Shortened link.'),
  width: z.number().int().optional().describe('Width in pixels.'),
  height: z.number().int().optional().describe('Height in pixels.'),
  variants: z
    .array(
      z.object({
        bitrate: z.number().int().optional().describe('Bits per second of this rendition.'),
        contentType: z.string().describe('MIME type of this rendition (`video/mp4`, ...).'),
        url: z.string().describe('Direct URL of this rendition.'),
      }),
    )
    .optional()
    .describe('Video renditions.'),
});

/** URL, mention and hashtag entities of a tweet. */
export const TweetEntitiesSchema = z.object({
  urls: z
    .array(
      z.object({
        url: z.string().describe('Shortened link as it appears in the text.'),
        expandedUrl: z.string().optional().describe('Full destination of the link.'),
        displayUrl: z.string().optional().describe('Link as the platform displays it.'),
      }),
    )
    .optional()
    .describe('Links in the text.'),
  mentions: z
    .array(
      z.object({
        id: z.string().optional().describe('User id of the mentioned account.'),
        username: z.string().describe('Username of the mentioned account, without @.'),
      }),
    )
    .optional()
    .describe('Accounts mentioned in the text.'),
  hashtags: z
    .array(z.object({ text: z.string().describe('The hashtag without #.') }))
    .optional()
    .describe('Hashtags in the text.'),
  cashtags: z
    .array(z.object({ text: z.string().describe('The cashtag without $.') }))
    .optional()
    .describe('Cashtags in the text.'),
  media: z
    .array(
      z.object({
        mediaUrl: z.string().describe('Direct URL of the media.'),
        type: z.string().describe('Kind of media.'),
      }),
    )
    .optional()
    .describe('Media referenced from the text.'),
});

/** A poll attached to a tweet. */
export const TweetPollSchema = z.object({
  options: z
    .array(
      z.object({
        label: z.string().describe('Text of the choice.'),
        votes: z.number().int().optional().describe('Votes for this choice, when visible.'),
      }),
    )
    .describe('The choices of the poll.'),
  endsAt: z.string().optional().describe('When voting closes (ISO 8601).'),
  votingStatus: openEnum(['open', 'closed']).optional().describe('`open` or `closed`.'),
});

const tweetShape = {
  id: z.string().describe('Platform tweet id (a big integer as a string).'),
  text: z.string().describe('Full text; Note Tweets carry up to 25,000 characters.'),
  createdAt: z.string().describe('When the tweet was posted (ISO 8601).'),
  type: z.string().optional().describe('Kind of record, when the source names it (`tweet`, ...).'),
  url: z.string().optional().describe('Link to the tweet on the platform.'),
  lang: z.string().optional().describe('Detected language code of the text.'),
  source: z.string().optional().describe('Client the tweet was posted with.'),
  isNoteTweet: z.boolean().optional().describe('True for a long-form Note Tweet.'),
  isReply: z.boolean().optional().describe('True when the tweet answers another tweet.'),
  isLimitedReply: z.boolean().optional().describe('True when the author limited who may reply.'),
  isQuoteStatus: z.boolean().optional().describe('True when the tweet quotes another tweet.'),
  isRetweet: z.boolean().optional().describe('True for a repost record.'),
  conversationId: z.string().optional().describe('Id of the first tweet of the conversation.'),
  inReplyToId: z.string().optional().describe('Id of the tweet this one answers.'),
  inReplyToUserId: z.string().optional().describe('User id of the author this tweet answers.'),
  inReplyToUsername: z.string().optional().describe('Username of the author this tweet answers.'),
  displayTextRange: z
    .array(z.number().int())
    .optional()
    .describe('Start and end offsets of the visible part of the text.'),
  entities: TweetEntitiesSchema.optional().describe('Links, mentions, hashtags and media found in the text.'),
  contentDisclosure: z
    .object({
      advertising: z
        .object({ isPaidPromotion: z.boolean().describe('True when the author marked the tweet as paid.') })
        .optional()
        .describe('Paid-promotion disclosure.'),
      aiGenerated: z
        .object({ hasAiGeneratedMedia: z.boolean().describe('True when the media is marked as AI-made.') })
        .optional()
        .describe('AI-generated media disclosure.'),
    })
    .optional()
    .describe('Disclosures the author supplied.'),
  likeCount: z.number().int().optional().describe('Number of likes.'),
  retweetCount: z.number().int().optional().describe('Number of reposts.'),
  replyCount: z.number().int().optional().describe('Number of replies.'),
  quoteCount: z.number().int().optional().describe('Number of quote tweets.'),
  viewCount: z.number().int().optional().describe('Number of views.'),
  bookmarkCount: z.number().int().optional().describe('Number of bookmarks.'),
  retweetedAt: z
    .string()
    .nullable()
    .optional()
    .describe('Repost time; null when unavailable; omitted for originals.'),
  media: z.array(TweetMediaSchema).optional().describe('Attached media; omitted when there is none.'),
  poll: TweetPollSchema.optional().describe('Attached poll.'),
  author: TweetAuthorSchema.optional().describe('Who posted the tweet; omitted when unavailable.'),
  isPinned: z.boolean().optional().describe('True when the tweet is pinned to its author profile.'),
  communityId: z.string().optional().describe('Community the tweet was posted in.'),
  communityName: z.string().optional().describe('Name of that community.'),
};

/** A quoted or retweeted tweet nested in another (one level deep). */
export const NestedTweetSchema = z.object(tweetShape);

/** A tweet object as returned by tweet reads (spec 2.10). */
export const TweetSchema = z.object({
  ...tweetShape,
  quoted_tweet: NestedTweetSchema.optional().describe('The tweet this one quotes.'),
  retweeted_tweet: NestedTweetSchema.optional().describe('The original of a repost.'),
});

export type Tweet = z.infer<typeof TweetSchema>;
export type TweetAuthor = z.infer<typeof TweetAuthorSchema>;
export type TweetMedia = z.infer<typeof TweetMediaSchema>;
export type TweetEntities = z.infer<typeof TweetEntitiesSchema>;
export type TweetPoll = z.infer<typeof TweetPollSchema>;
