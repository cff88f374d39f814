import { z } from 'zod';

/** The affiliate badge shown next to a profile's name (for example an organisation's logo). */
export const UserAffiliateLabelSchema = z.object({
  label: z.string().optional().describe('Text of the badge, usually the affiliated organisation.'),
  url: z.string().optional().describe('Link the badge points to.'),
  badgeUrl: z.string().optional().describe('Image of the badge.'),
  userId: z.string().optional().describe('Platform user id of the affiliated organisation, when it has one.'),
});

/** What a profile shows in its Highlights tab. */
export const UserHighlightsInfoSchema = z.object({
  canHighlightTweets: z.boolean().optional().describe('True when the account may pin tweets to Highlights.'),
  highlightedTweets: z.number().int().optional().describe('How many tweets are highlighted.'),
});

/** The identity-verification state of a profile. */
export const UserIdentityVerificationSchema = z.object({
  isIdentityVerified: z
    .boolean()
    .optional()
    .describe('True when the owner verified their identity with an ID.'),
  verifiedSince: z.string().optional().describe('When the identity was verified (ISO 8601).'),
});

/** A user profile (reference `UserProfile`, returned by user lookups and user lists). */
export const UserProfileSchema = z.object({
  id: z.string().describe('Platform user id (a big integer as a string).'),
  username: z.string().describe('Username without @.'),
  name: z.string().describe('Display name.'),
  description: z.string().optional().describe('Bio text.'),
  followers: z.number().int().optional().describe('Number of followers.'),
  following: z.number().int().optional().describe('Number of accounts this user follows.'),
  verified: z.boolean().optional().describe('True when the profile shows any verification badge.'),
  isBlueVerified: z.boolean().optional().describe('True for a paid (blue) verification.'),
  isVerified: z.boolean().optional().describe('True for a legacy or organisation verification.'),
  verifiedType: z
    .string()
    .optional()
    .describe('Kind of verification (`blue`, `business`, `government`, ...).'),
  profilePicture: z.string().optional().describe('URL of the avatar image.'),
  coverPicture: z.string().optional().describe('URL of the header image.'),
  profileBannerUrl: z.string().optional().describe('URL of the header image (older name of `coverPicture`).'),
  location: z.string().optional().describe('Free-text location from the profile.'),
  url: z.string().optional().describe('Website link of the profile.'),
  createdAt: z.string().optional().describe('When the account was created (ISO 8601).'),
  statusesCount: z
    .number()
    .int()
    .optional()
    .describe('Number of tweets posted, replies and reposts included.'),
  mediaCount: z.number().int().optional().describe('Number of tweets with media.'),
  favouritesCount: z.number().int().optional().describe('Number of tweets the user liked.'),
  protected: z.boolean().optional().describe('True when only approved followers can read the tweets.'),
  pinnedTweetIds: z.array(z.string()).optional().describe('Ids of the tweets pinned to the profile.'),
  isAutomated: z.boolean().optional().describe('True when the profile is labelled as automated.'),
  automatedBy: z.string().optional().describe('Username of the account that runs this automated profile.'),
  unavailable: z
    .boolean()
    .optional()
    .describe('True when the profile cannot be shown (suspended, deactivated, ...).'),
  unavailableReason: z.string().optional().describe('Why the profile cannot be shown.'),
  possiblySensitive: z
    .boolean()
    .optional()
    .describe('True when the profile is marked as possibly sensitive.'),
  withheldInCountries: z
    .array(z.string())
    .optional()
    .describe('Country codes where the profile is withheld.'),
  profileImageShape: z.string().optional().describe('Avatar shape: `Circle`, or `Square` for organisations.'),
  communityRole: z.string().optional().describe('Role in the community, in community member lists.'),
  hasCustomTimelines: z.boolean().optional().describe('True when the user made custom timelines.'),
  isTranslator: z.boolean().optional().describe('True when the user volunteers as a translator.'),
  affiliatesHighlightedLabel: UserAffiliateLabelSchema.optional().describe('Affiliate badge, when shown.'),
  businessAccountAffiliatesCount: z.number().int().optional().describe('Affiliates of a business account.'),
  creatorSubscriptionsCount: z.number().int().optional().describe('Creators this user subscribes to.'),
  hasGraduatedAccess: z
    .boolean()
    .optional()
    .describe('True when the account left the new-account restrictions.'),
  hasHiddenSubscriptionsOnProfile: z.boolean().optional().describe('True when subscriptions are hidden.'),
  highlightsInfo: UserHighlightsInfoSchema.optional().describe('Highlights tab information.'),
  identityVerification: UserIdentityVerificationSchema.optional().describe('Identity verification state.'),
  isProfileTranslatable: z.boolean().optional().describe('True when the bio can be machine-translated.'),
  parodyCommentaryFanLabel: z.string().optional().describe('Parody, commentary or fan account label.'),
  profileDescriptionLanguage: z.string().optional().describe('Detected language of the bio.'),
  profileInterstitialType: z.string().optional().describe('Warning shown before the profile, when any.'),
  profileSortEnabled: z.boolean().optional().describe('True when the profile tweets can be re-sorted.'),
  profileTranslatorType: z.string().optional().describe('Translator level of the user.'),
  superFollowEligible: z.boolean().optional().describe('True when others can subscribe to this user.'),
  profile_bio: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('Raw bio block with its entities, as the platform gives it.'),
});

export type UserProfile = z.infer<typeof UserProfileSchema>;
export type UserAffiliateLabel = z.infer<typeof UserAffiliateLabelSchema>;
export type UserHighlightsInfo = z.infer<typeof UserHighlightsInfoSchema>;
export type UserIdentityVerification = z.infer<typeof UserIdentityVerificationSchema>;
