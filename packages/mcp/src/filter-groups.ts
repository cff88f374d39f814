import { schemas } from '@xsvc/sdk/contract';
import { z } from 'zod';
import type { JsonSchema } from './json-schema.js';
import { leanProperty, toJsonSchema } from './json-schema.js';

/**
 * Filter sets the contract shares between many reads (the very same zod field schemas, spread into each
 * operation's query). A tool lists a set once, as its own argument, instead of once per action: in the
 * `users` tool the 44 tweet filters would otherwise appear five times. An action still accepts its filters
 * inside `params` too.
 */
export interface FilterGroup {
  /** The tool argument holding the set. */
  readonly name: string;
  readonly about: string;
  readonly shape: Readonly<Record<string, z.ZodType>>;
}

export const FILTER_GROUPS: readonly FilterGroup[] = [
  { name: 'tweet_filters', about: 'Tweet filters', shape: schemas.tweetFilterQuery },
  { name: 'user_filters', about: 'User filters', shape: schemas.userFilterQuery },
];

/** Fewer shared fields than this stay inline: a small set costs less than the indirection. */
const MIN_FIELDS = 8;

/** The fields of each group an action's params hold (same schema instances), when enough to hoist. */
export function filtersOf(shape: Readonly<Record<string, z.ZodType>>): Map<string, readonly string[]> {
  const found = new Map<string, readonly string[]>();
  for (const group of FILTER_GROUPS) {
    const keys = Object.keys(group.shape).filter(
      (k) => shape[k] !== undefined && shape[k] === group.shape[k],
    );
    if (keys.length >= MIN_FIELDS) found.set(group.name, keys);
  }
  return found;
}

/**
 * The JSON Schema of a tool's filter argument: the fields its actions take, grouped by type in one line
 * (a filter set has ~45 fields, listed in several tools: one line costs a third of a property map), and
 * which actions take them. Each field is still validated by its own schema when the call is made, and
 * `explore` answers the whole schema of any action.
 */
export function filterArgumentJson(
  group: FilterGroup,
  keys: readonly string[],
  actions: readonly string[],
): JsonSchema {
  const shape: Record<string, z.ZodType> = {};
  for (const k of keys) shape[k] = group.shape[k]!;
  const json = toJsonSchema(z.object(shape));
  const byType = new Map<string, string[]>();
  const choices: string[] = [];
  for (const [k, v] of Object.entries((json.properties ?? {}) as Record<string, JsonSchema>)) {
    const lean = leanProperty(v);
    if (Array.isArray(lean.enum)) {
      choices.push(`${k} (${lean.enum.join('|')})`);
      continue;
    }
    const type = Array.isArray(lean.type) ? lean.type.join('|') : String(lean.type ?? 'any');
    byType.set(type, [...(byType.get(type) ?? []), k]);
  }
  const fields = [...[...byType].map(([type, names]) => `${type}: ${names.join(', ')}`), ...choices];
  return {
    type: 'object',
    description: `${group.about} of actions ${actions.join(', ')}, merged into params (explore gives each one's meaning). ${fields.join('; ')}.`,
  };
}
