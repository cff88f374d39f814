import { z } from 'zod';

/** The body fields that name one target of an extraction. */
type TargetField =
  | 'targetTweetId'
  | 'targetUsername'
  | 'targetCommunityId'
  | 'searchQuery'
  | 'targetListId'
  | 'targetSpaceId';

/** Relations of the reference's `ExtractionRelationTarget`, by the target field their value names. */
const RELATION_FIELDS = {
  followers: 'targetUsername',
  following: 'targetUsername',
  verified_followers: 'targetUsername',
  community_members: 'targetCommunityId',
  list_members: 'targetListId',
  list_followers: 'targetListId',
} as const satisfies Record<string, TargetField>;

/** Kinds of the reference's `ExtractionMixedTarget`, by the target field their value names. */
const KIND_FIELDS = {
  profile: 'targetUsername',
  profile_likes: 'targetUsername',
  profile_media: 'targetUsername',
  profile_replies: 'targetUsername',
  tweet: 'targetTweetId',
  thread: 'targetTweetId',
  replies: 'targetTweetId',
  quotes: 'targetTweetId',
  retweeters: 'targetTweetId',
  favoriters: 'targetTweetId',
  search: 'searchQuery',
  list: 'targetListId',
} as const satisfies Record<string, TargetField>;

const values = (what: string) => z.array(z.string().min(1)).min(1).max(100).optional().describe(what);

/**
 * The multi-target fields of the reference (what generated clients of the service send): the values that
 * fit the tool are the job's targets, read one after the other in one job.
 */
export const extractionMultiTargetFields = {
  targetTweetIds: values('Tweets to read (reference multi-target form of `targetTweetId`).'),
  targetUsernames: values('Accounts to read (reference multi-target form of `targetUsername`).'),
  targetCommunityIds: values('Communities to read (reference multi-target form of `targetCommunityId`).'),
  targetListIds: values('Lists to read (reference multi-target form of `targetListId`).'),
  searchQueries: values('Search texts (reference multi-target form of `searchQuery`).'),
  targets: z
    .array(
      z.union([
        z.string().min(1),
        z.object({
          kind: z.enum(Object.keys(KIND_FIELDS) as [keyof typeof KIND_FIELDS]),
          value: z.string().min(1),
        }),
      ]),
    )
    .min(1)
    .max(100)
    .optional()
    .describe('Mixed targets (reference `ExtractionMixedTarget`): a plain value, or `{ kind, value }`.'),
  relationTargets: z
    .array(
      z.object({
        relation: z.enum(Object.keys(RELATION_FIELDS) as [keyof typeof RELATION_FIELDS]),
        value: z.string().min(1),
      }),
    )
    .min(1)
    .max(100)
    .optional()
    .describe('Relation targets (reference `ExtractionRelationTarget`): `{ relation, value }`.'),
};

type MultiTargets = {
  [K in keyof typeof extractionMultiTargetFields]?: z.infer<(typeof extractionMultiTargetFields)[K]>;
};
type Body = MultiTargets & Partial<Record<TargetField, string | undefined>>;

const PLURALS = {
  targetTweetId: 'targetTweetIds',
  targetUsername: 'targetUsernames',
  targetCommunityId: 'targetCommunityIds',
  targetListId: 'targetListIds',
  searchQuery: 'searchQueries',
} as const;

/** Comparable form of a target value (usernames compare without @ and case). */
const key = (field: TargetField, v: string) =>
  field === 'targetUsername' ? v.replace(/^@/, '').toLowerCase() : v.trim();

/**
 * The values a body gives for a tool's target `field`: the single field, its plural, the plain and matching
 * `targets`, the matching `relationTargets`, de-duplicated. Empty when the body names none.
 */
export function extractionTargetValues(body: Body, field: TargetField): string[] {
  const found: string[] = [];
  const single = body[field];
  if (single !== undefined) found.push(single);
  const plural = field in PLURALS ? body[PLURALS[field as keyof typeof PLURALS]] : undefined;
  if (plural) found.push(...plural);
  for (const t of body.targets ?? []) {
    if (typeof t === 'string') found.push(t);
    else if (KIND_FIELDS[t.kind] === field) found.push(t.value);
  }
  for (const r of body.relationTargets ?? []) if (RELATION_FIELDS[r.relation] === field) found.push(r.value);
  const seen = new Map<string, string>();
  for (const v of found) if (!seen.has(key(field, v))) seen.set(key(field, v), v);
  return [...seen.values()];
}
