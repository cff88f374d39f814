import { EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE } from '@xsvc/sdk/contract';
import { UsageError } from '../shared/usage-error.js';

/** Checks `--events` against the 21 event types (spec 6.1); a wrong one names the flag and the valid list. */
export function parseEventTypes(
  values: readonly string[] | undefined,
  flag = '--events',
): string[] | undefined {
  if (values === undefined) return undefined;
  for (const v of values) {
    if (!(EVENT_TYPES as readonly string[]).includes(v)) {
      throw new UsageError(
        `${flag}: unknown event type ${JSON.stringify(v)}; valid: ${EVENT_TYPES.join(', ')}`,
        flag,
      );
    }
  }
  return [...new Set(values)];
}

/** Every type `webhooks trigger` can send: the 21 monitor types and `webhook.test`. */
export const TRIGGER_TYPES = [...EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];
