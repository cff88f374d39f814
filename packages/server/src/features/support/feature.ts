import { defineFeature } from '../../core/feature.js';
import { registerSupport, supportHandlers } from './handlers.js';
import { SUPPORT_TABLES } from './tables.js';

/** Support tickets (spec 4.12) with attachments. */
export const supportFeature = defineFeature({
  name: 'support',
  tables: SUPPORT_TABLES,
  handlers: supportHandlers,
  routes: registerSupport,
});
