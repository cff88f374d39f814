import { z } from 'zod';
import { EVENT_TYPES, TWEET_EVENT_TYPES } from '../events.js';
import { openEnum } from '../zod-helpers.js';

/**
 * Why the service paused an account monitor on its own (reference: `pausedReason`): the watched account no
 * longer exists or is suspended (`x_user_not_found`), or the account's credits could not pay the next hour
 * (`insufficient_credits`).
 */
export const MONITOR_PAUSED_REASONS = ['x_user_not_found', 'insufficient_credits'] as const;

/** A monitor's effective check interval (both monitor kinds show it). */
const CheckIntervalSeconds = z
  .number()
  .int()
  .min(1)
  .optional()
  .describe(
    "How often the monitor is checked now, in seconds: 1 on the simulated platform; on the X API, as often as the app's request budget allows for every active monitor (longer with more monitors).",
  );

/** An account monitor (spec 2.4): watches one platform account for the selected event types. */
export const MonitorSchema = z.object({
  id: z.string().describe('Identifier of the monitor.'),
  username: z.string().describe('Watched account, normalized (no @); fixed once the monitor exists.'),
  xUserId: z.string().describe('Platform user id the username resolved to at creation; never changes.'),
  eventTypes: z
    .array(openEnum(EVENT_TYPES))
    .describe('Event types this monitor stores and delivers (at least one of the 21 types).'),
  isActive: z
    .boolean()
    .describe('True while the monitor checks every second and is billed hourly; false when paused.'),
  createdAt: z.string().describe('When the monitor was created (ISO 8601).'),
  nextBillingAt: z.string().describe('When the next hourly charge of this monitor falls due (ISO 8601).'),
  checkIntervalSeconds: CheckIntervalSeconds,
  pausedReason: openEnum(MONITOR_PAUSED_REASONS)
    .optional()
    .describe('Set when the service paused the monitor itself, e.g. the watched account no longer exists.'),
  pausedAt: z
    .string()
    .optional()
    .describe('When the service paused the monitor (ISO 8601), with `pausedReason`.'),
});

/** A keyword monitor (spec 2.4): watches a search query for new matching tweets. */
export const KeywordMonitorSchema = z.object({
  id: z.string().describe('Identifier of the keyword monitor.'),
  query: z.string().describe('Search query whose new matching tweets become events.'),
  eventTypes: z
    .array(openEnum(TWEET_EVENT_TYPES))
    .describe('Tweet event types this monitor stores and delivers (tweet types only).'),
  isActive: z.boolean().describe('True while the monitor checks and is billed; false when paused.'),
  createdAt: z.string().describe('When the keyword monitor was created (ISO 8601).'),
  nextBillingAt: z.string().describe('When the next hourly charge of this monitor falls due (ISO 8601).'),
  checkIntervalSeconds: CheckIntervalSeconds,
});

/** The answer of the account-monitor list: every monitor of the account (up to 200, unpaginated). */
export const MonitorListSchema = z.object({
  monitors: z.array(MonitorSchema).describe('The account monitors, at most 200.'),
  total: z.number().int().describe('How many account monitors the account has.'),
});

/** The answer of the keyword-monitor list (up to 200, unpaginated). */
export const KeywordMonitorListSchema = z.object({
  monitors: z.array(KeywordMonitorSchema).describe('The keyword monitors, at most 200.'),
  total: z.number().int().describe('How many keyword monitors the account has.'),
});

export type Monitor = z.infer<typeof MonitorSchema>;
export type KeywordMonitor = z.infer<typeof KeywordMonitorSchema>;
export type MonitorList = z.infer<typeof MonitorListSchema>;
export type KeywordMonitorList = z.infer<typeof KeywordMonitorListSchema>;
