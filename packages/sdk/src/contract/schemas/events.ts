import { z } from 'zod';
import { EVENT_TYPES } from '../events.js';
import { openEnum } from '../zod-helpers.js';

/** Which kind of monitor produced a stored event. */
export const MONITOR_TYPES = ['account', 'keyword'] as const;

/**
 * An event stored by a monitor (spec 2.5, 6.3), read back through the events operations. Its `id` is the
 * `streamEventId` of the webhook deliveries it caused.
 */
export const StoredEventSchema = z.object({
  id: z.string().describe('Identifier of the stored event; equals `streamEventId` in webhook deliveries.'),
  type: openEnum(EVENT_TYPES).describe('Event type, one of the 21 monitor event types.'),
  monitorId: z.string().describe('Monitor that produced the event.'),
  monitorType: openEnum(MONITOR_TYPES).describe(
    'Whether an account monitor or a keyword monitor produced it.',
  ),
  keywordMonitorId: z
    .string()
    .optional()
    .describe('Keyword monitor that produced the event, for keyword events.'),
  username: z.string().optional().describe('Watched account (no @), for account-monitor events.'),
  query: z.string().optional().describe('Search query that matched, for keyword-monitor events.'),
  occurredAt: z.string().describe('When the event was detected (ISO 8601).'),
  data: z
    .record(z.string(), z.unknown())
    .describe('Event payload: the raw tweet for tweet events, the changed field for profile events.'),
  xEventId: z
    .string()
    .optional()
    .describe('Platform-side id of what triggered the event (e.g. the tweet id).'),
});

export type StoredEvent = z.infer<typeof StoredEventSchema>;
