import { z } from 'zod';

/** `{ success: true }`, the answer of many management operations. */
export const SuccessSchema = z.object({ success: z.boolean() });

/** The default-contract error body (spec part 7). */
export const ErrorBodySchema = z.looseObject({
  error: z.string(),
  message: z.string().optional(),
  retryAfter: z.number().int().optional(),
  retryAfterMs: z.number().int().optional(),
  reason: z.string().optional(),
});

/** An empty query or path-parameter object, for operations that take none. */
export const NoParams = z.object({});

/**
 * A style-A page (platform lists: events, draws, extractions, drafts): `{ <items>: T[], hasMore, nextCursor? }`.
 * `nextCursor` is present only when `hasMore` is true.
 */
export function pageA<const K extends string, T extends z.ZodType>(items: K, item: T) {
  return z.object({
    [items]: z.array(item),
    hasMore: z.boolean(),
    nextCursor: z.string().optional(),
  } as { [P in K]: z.ZodArray<T> } & { hasMore: z.ZodBoolean; nextCursor: z.ZodOptional<z.ZodString> });
}

/**
 * A style-B page (`/x/*` reads): `{ <items>: T[], has_next_page, next_cursor }`, `next_cursor` empty when none.
 */
export function pageB<const K extends string, T extends z.ZodType>(items: K, item: T) {
  return z.object({
    [items]: z.array(item),
    has_next_page: z.boolean(),
    next_cursor: z.string(),
  } as { [P in K]: z.ZodArray<T> } & { has_next_page: z.ZodBoolean; next_cursor: z.ZodString });
}

/** Style-A request parameters: `after` (the spec's name) or `cursor` (the reference's alias), and `limit`. */
export function pageAQuery(defaultLimit: number, maxLimit: number) {
  return {
    after: z.string().optional().describe('Opaque cursor from the previous page (`nextCursor`).'),
    cursor: z.string().optional().describe('Alias of `after`.'),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(maxLimit)
      .optional()
      .describe(`Page size, 1-${maxLimit} (default ${defaultLimit}).`),
  };
}

/** Style-B request parameter: `cursor`. */
export const cursorB = z
  .string()
  .optional()
  .describe('Opaque cursor from the previous page (`next_cursor`).');

/** Style-B request parameters: `cursor` (its one description serves every style-B listing). */
export const pageBQuery = { cursor: cursorB };
