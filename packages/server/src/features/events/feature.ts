import { defineFeature } from '../../core/feature.js';
import { eventHandlers } from './handlers.js';

/** The stored events of monitors (spec 6.2), listed and read back. */
export const eventsFeature = defineFeature({ name: 'events', handlers: eventHandlers });
