import { z } from 'zod';

const VerifiedType = z.enum(['blue', 'business', 'government']);
const Username = z
  .string()
  .min(1)
  .max(16)
  .describe('1-15 letters, digits or underscores (a leading @ is dropped).');
/** Epoch ms, or an ISO 8601 time. */
const Time = z.union([z.number().int(), z.iso.datetime({ offset: true }).transform((s) => Date.parse(s))]);

const profile = {
  name: z.string().optional(),
  description: z.string().optional(),
  location: z.string().optional(),
  url: z.string().optional(),
  profilePicture: z.string().optional(),
  coverPicture: z.string().optional(),
  protected: z.boolean().optional(),
};

/** `POST /sim/users`. */
export const CreateUserBody = z.object({
  username: Username,
  ...profile,
  verifiedType: VerifiedType.nullable().optional(),
  createdAt: Time.optional(),
});

/** `PATCH /sim/users/:username`: any profile field, a rename, protection, suspension, a lock, verification, pin. */
export const UpdateUserBody = z.object({
  username: Username.optional(),
  ...profile,
  verified: z.boolean().optional(),
  verifiedType: VerifiedType.nullable().optional(),
  suspended: z.boolean().optional(),
  locked: z.boolean().optional(),
  pinnedTweetId: z
    .string()
    .regex(/^\d{1,25}$/, 'must be a numeric id')
    .nullable()
    .optional(),
});

const TweetId = z.string().regex(/^\d{1,25}$/, 'must be a numeric id');

/** `POST /sim/tweets`: an original, reply, quote or repost, with media or a poll. */
export const CreateTweetBody = z.object({
  author: z.string().min(1).describe('Id, username or profile URL of the author.'),
  text: z.string().optional(),
  inReplyToId: TweetId.optional(),
  quotedTweetId: TweetId.optional(),
  retweetOfId: TweetId.optional(),
  media: z
    .array(z.object({ type: z.enum(['photo', 'video', 'animated_gif']), url: z.url().optional() }))
    .max(4)
    .optional(),
  poll: z
    .object({ options: z.array(z.string()).min(2).max(4), durationMinutes: z.number().int().optional() })
    .optional(),
  lang: z.string().optional(),
  communityId: z.string().optional(),
  source: z.string().max(100).optional(),
});

/** `POST /sim/reset`. */
export const ResetBody = z.object({
  seed: z.union([z.string().min(1).max(200), z.number().int()]),
  size: z.enum(['tiny', 'small', 'default']).optional(),
});

/** `POST /sim/users/:username/following`. */
export const FollowBody = z.object({ target: z.string().min(1) });

/** `POST /sim/users/:username/likes`. */
export const LikeBody = z.object({ tweetId: TweetId });

/** Path parameters. */
export const UserParams = z.object({ username: z.string().min(1) });
export const TweetParams = z.object({ id: TweetId });
export const UnfollowParams = z.object({ username: z.string().min(1), target: z.string().min(1) });
