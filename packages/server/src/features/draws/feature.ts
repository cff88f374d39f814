import { defineFeature } from '../../core/feature.js';
import { drawHandlers } from './handlers.js';
import { DRAWS_TABLES } from './tables.js';

/** Giveaway draws (spec 4.7): verifiable draws from a tweet's engagement, their exports. */
export const drawsFeature = defineFeature({ name: 'draws', tables: DRAWS_TABLES, handlers: drawHandlers });
