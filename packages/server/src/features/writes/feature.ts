import { defineFeature } from '../../core/feature.js';
import { writeHandlers } from './handlers.js';

/** Write actions through connected accounts (spec 4.8): post, reply, like, follow … */
export const writesFeature = defineFeature({ name: 'writes', handlers: writeHandlers });
