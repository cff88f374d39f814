import { defineFeature } from '../../core/feature.js';
import { drawHandlers } from './handlers.js';

/** Giveaway draws (spec 4.7): verifiable draws from a tweet's engagement, their exports. */
export const drawsFeature = defineFeature({ name: 'draws', handlers: drawHandlers });
