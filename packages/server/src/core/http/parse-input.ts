import type { z } from 'zod';
import { HttpError } from './errors.js';
import { describeIssue } from './register.js';
import { assertWellFormed } from './well-formed.js';

/** Validates what a plain route received; 400 `invalid_input` naming the first bad field. */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: 'body' | 'query' | 'path',
): z.output<S> {
  assertWellFormed(value, where);
  const r = schema.safeParse(value ?? {});
  if (!r.success) throw new HttpError('invalid_input', describeIssue(where, r.error));
  return r.data;
}
