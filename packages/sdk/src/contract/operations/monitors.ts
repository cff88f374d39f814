import { z } from 'zod';
import { EventTypeArray, TweetEventTypeArray } from '../events.js';
import { limits } from '../limits.js';
import { defineOperation } from '../operation.js';
import { SuccessSchema } from '../schemas/common.js';
import {
  KeywordMonitorListSchema,
  KeywordMonitorSchema,
  MonitorListSchema,
  MonitorSchema,
} from '../schemas/monitors.js';
import { ResourceId } from '../zod-helpers.js';

const keyOrToken = ['apiKey', 'oauth', 'session'] as const;
const billingErrors = [
  'no_subscription',
  'subscription_inactive',
  'no_credits',
  'insufficient_credits',
] as const;
const activeMonitorCost = {
  kind: 'metered',
  note: `about ${limits.monitorCreditsPerHour} credits per hour while active`,
} as const;

const monitorId = z.object({ id: ResourceId.describe('Identifier of the account monitor.') });
const keywordMonitorId = z.object({ id: ResourceId.describe('Identifier of the keyword monitor.') });

const atLeastOne = {
  message: 'at least one of eventTypes or isActive is required',
} as const;

export const listMonitors = defineOperation({
  id: 'listMonitors',
  method: 'GET',
  path: '/api/v1/monitors',
  tag: 'Monitors',
  summary: 'List the account monitors',
  description: 'Returns every account monitor of the account (at most 200), without pagination.',
  sdk: ['monitors', 'list'],
  auth: keyOrToken,
  params: null,
  query: null,
  body: null,
  success: [200],
  response: MonitorListSchema,
  errors: [],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'monitors list',
});

export const createMonitor = defineOperation({
  id: 'createMonitor',
  method: 'POST',
  path: '/api/v1/monitors',
  tag: 'Monitors',
  summary: 'Start monitoring an account',
  description:
    'Resolves the username and starts checking the account every second for the chosen event types. ' +
    'Matched events are stored and delivered to the webhooks that subscribe to them. An active monitor costs ' +
    `about ${limits.monitorCreditsPerHour} credits per hour. A second monitor of the same account answers ` +
    '409 `monitor_already_exists`: update the existing one instead.',
  sdk: ['monitors', 'create'],
  auth: keyOrToken,
  params: null,
  query: null,
  body: z.object({
    username: z
      .string()
      .regex(/^@?[A-Za-z0-9_]{1,15}$/, 'must be a username of 1-15 letters, digits or underscores')
      .describe('Account to watch (a leading @ is stripped).'),
    eventTypes: EventTypeArray.describe(
      'Event types to store and deliver: at least one of the 21, no repeats.',
    ),
  }),
  success: [201],
  response: MonitorSchema,
  errors: ['invalid_input', ...billingErrors, 'user_not_found', 'monitor_already_exists'],
  pagination: null,
  cost: activeMonitorCost,
  idempotent: false,
  example: 'monitors create --username jack --event-types tweet.new,tweet.reply',
});

export const getMonitor = defineOperation({
  id: 'getMonitor',
  method: 'GET',
  path: '/api/v1/monitors/{id}',
  tag: 'Monitors',
  summary: 'Get an account monitor',
  sdk: ['monitors', 'get'],
  auth: keyOrToken,
  params: monitorId,
  query: null,
  body: null,
  success: [200],
  response: MonitorSchema,
  errors: ['invalid_id', 'invalid_input', 'not_found'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'monitors get 1234567890',
});

export const updateMonitor = defineOperation({
  id: 'updateMonitor',
  method: 'PATCH',
  path: '/api/v1/monitors/{id}',
  tag: 'Monitors',
  summary: 'Change the event types of an account monitor, or pause or resume it',
  description:
    '`eventTypes` replaces the filter. `isActive: false` pauses checks, events, deliveries and billing; ' +
    '`isActive: true` resumes them. The username cannot change.',
  sdk: ['monitors', 'update'],
  auth: keyOrToken,
  params: monitorId,
  query: null,
  body: z
    .object({
      eventTypes: EventTypeArray.optional().describe('New event types; replaces the current list.'),
      isActive: z.boolean().optional().describe('False pauses the monitor and its billing; true resumes it.'),
    })
    .refine((b) => b.eventTypes !== undefined || b.isActive !== undefined, atLeastOne),
  success: [200],
  response: MonitorSchema,
  errors: ['invalid_id', 'invalid_input', 'not_found', 'monitor_already_exists'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'monitors update 1234567890 --is-active false',
});

export const deleteMonitor = defineOperation({
  id: 'deleteMonitor',
  method: 'DELETE',
  path: '/api/v1/monitors/{id}',
  tag: 'Monitors',
  summary: 'Delete an account monitor',
  description: 'Stops checks, events, deliveries and billing of the monitor for good.',
  sdk: ['monitors', 'delete'],
  auth: keyOrToken,
  params: monitorId,
  query: null,
  body: null,
  success: [200],
  response: SuccessSchema,
  errors: ['invalid_id', 'invalid_input', 'not_found'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'monitors delete 1234567890',
});

export const listKeywordMonitors = defineOperation({
  id: 'listKeywordMonitors',
  method: 'GET',
  path: '/api/v1/monitors/keywords',
  tag: 'Monitors',
  summary: 'List the keyword monitors',
  description: 'Returns every keyword monitor of the account (at most 200), without pagination.',
  sdk: ['monitors', 'keywords', 'list'],
  auth: keyOrToken,
  params: null,
  query: null,
  body: null,
  success: [200],
  response: KeywordMonitorListSchema,
  errors: [],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'monitors keywords list',
});

export const createKeywordMonitor = defineOperation({
  id: 'createKeywordMonitor',
  method: 'POST',
  path: '/api/v1/monitors/keywords',
  tag: 'Monitors',
  summary: 'Start monitoring a search query',
  description:
    'Checks the query every second; each new matching tweet of a chosen tweet type becomes a stored event and a ' +
    `delivery. An active monitor costs about ${limits.monitorCreditsPerHour} credits per hour. The same query ` +
    'twice answers 409 `monitor_already_exists`.',
  sdk: ['monitors', 'keywords', 'create'],
  auth: keyOrToken,
  params: null,
  query: null,
  body: z.object({
    query: z.string().min(1).max(512).describe('Search query to watch, 1-512 characters.'),
    eventTypes: TweetEventTypeArray.describe(
      'Tweet event types to store and deliver: at least one, no repeats.',
    ),
  }),
  success: [201],
  response: KeywordMonitorSchema,
  errors: ['invalid_input', ...billingErrors, 'monitor_already_exists'],
  pagination: null,
  cost: activeMonitorCost,
  idempotent: false,
  example: 'monitors keywords create --query "xsvc OR #xsvc" --event-types tweet.new',
});

export const getKeywordMonitor = defineOperation({
  id: 'getKeywordMonitor',
  method: 'GET',
  path: '/api/v1/monitors/keywords/{id}',
  tag: 'Monitors',
  summary: 'Get a keyword monitor',
  sdk: ['monitors', 'keywords', 'get'],
  auth: keyOrToken,
  params: keywordMonitorId,
  query: null,
  body: null,
  success: [200],
  response: KeywordMonitorSchema,
  errors: ['invalid_id', 'invalid_input', 'not_found'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'monitors keywords get 1234567890',
});

export const updateKeywordMonitor = defineOperation({
  id: 'updateKeywordMonitor',
  method: 'PATCH',
  path: '/api/v1/monitors/keywords/{id}',
  tag: 'Monitors',
  summary: 'Change the event types of a keyword monitor, or pause or resume it',
  description:
    '`eventTypes` replaces the filter; `isActive` pauses or resumes checks and billing. The query cannot change.',
  sdk: ['monitors', 'keywords', 'update'],
  auth: keyOrToken,
  params: keywordMonitorId,
  query: null,
  body: z
    .object({
      eventTypes: TweetEventTypeArray.optional().describe(
        'New tweet event types; replaces the current list.',
      ),
      isActive: z.boolean().optional().describe('False pauses the monitor and its billing; true resumes it.'),
    })
    .refine((b) => b.eventTypes !== undefined || b.isActive !== undefined, atLeastOne),
  success: [200],
  response: KeywordMonitorSchema,
  errors: ['invalid_id', 'invalid_input', 'not_found'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'monitors keywords update 1234567890 --event-types tweet.new,tweet.quote',
});

export const deleteKeywordMonitor = defineOperation({
  id: 'deleteKeywordMonitor',
  method: 'DELETE',
  path: '/api/v1/monitors/keywords/{id}',
  tag: 'Monitors',
  summary: 'Delete a keyword monitor',
  description: 'Stops checks, events, deliveries and billing of the keyword monitor for good.',
  sdk: ['monitors', 'keywords', 'delete'],
  auth: keyOrToken,
  params: keywordMonitorId,
  query: null,
  body: null,
  success: [200],
  response: SuccessSchema,
  errors: ['invalid_id', 'invalid_input', 'not_found'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'monitors keywords delete 1234567890',
});

/** The Monitors operations. */
export const monitorsOperations = [
  listMonitors,
  createMonitor,
  getMonitor,
  updateMonitor,
  deleteMonitor,
  listKeywordMonitors,
  createKeywordMonitor,
  getKeywordMonitor,
  updateKeywordMonitor,
  deleteKeywordMonitor,
] as const;
