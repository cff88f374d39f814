import { defineFeature } from '../../core/feature.js';
import { writeHandlers } from './handlers.js';
import { WRITES_TABLES } from './tables.js';

/** Write actions through connected accounts (spec 4.8): post, reply, like, follow … */
export const writesFeature = defineFeature({
  name: 'writes',
  tables: WRITES_TABLES,
  handlers: writeHandlers,
});
