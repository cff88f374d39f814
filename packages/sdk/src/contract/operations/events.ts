import { z } from 'zod';
import { EVENT_TYPES } from '../events.js';
import { limits } from '../limits.js';
import { defineOperation } from '../operation.js';
import { pageA, pageAQuery } from '../schemas/common.js';
import { StoredEventSchema } from '../schemas/events.js';
import { ResourceId } from '../zod-helpers.js';

const keyOrToken = ['apiKey', 'oauth', 'session'] as const;

export const listEvents = defineOperation({
  id: 'listEvents',
  method: 'GET',
  path: '/api/v1/events',
  tag: 'Events',
  summary: 'List stored monitor events',
  description:
    'Pages through the events your monitors stored. Scope with `monitorId` or `keywordMonitorId` and page ' +
    'with `after` until `hasMore` is false to backfill what webhook deliveries missed: an event id equals ' +
    'the `streamEventId` of its deliveries.',
  sdk: ['events', 'list'],
  auth: keyOrToken,
  params: null,
  query: z.object({
    ...pageAQuery(limits.events.defaultLimit, limits.events.maxLimit),
    monitorId: z.string().min(1).optional().describe('Only events of this account monitor.'),
    keywordMonitorId: z.string().min(1).optional().describe('Only events of this keyword monitor.'),
    eventType: z.enum(EVENT_TYPES).optional().describe('Only events of this type.'),
  }),
  body: null,
  success: [200],
  response: pageA('events', StoredEventSchema),
  errors: ['invalid_input'],
  pagination: 'A',
  items: 'events',
  cost: { kind: 'free' },
  idempotent: true,
  example: 'events list --monitor-id 1234567890 --event-type tweet.reply --limit 100',
});

export const getEvent = defineOperation({
  id: 'getEvent',
  method: 'GET',
  path: '/api/v1/events/{id}',
  tag: 'Events',
  summary: 'Get one stored event',
  sdk: ['events', 'get'],
  auth: keyOrToken,
  params: z.object({
    id: ResourceId.describe('Identifier of the event (the `streamEventId` of its deliveries).'),
  }),
  query: null,
  body: null,
  success: [200],
  response: StoredEventSchema,
  errors: ['invalid_id', 'invalid_input', 'not_found'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'events get 9876543210',
});

/** The Events operations. */
export const eventsOperations = [listEvents, getEvent] as const;
