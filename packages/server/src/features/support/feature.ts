import { defineFeature } from '../../core/feature.js';
import { registerSupport, supportHandlers } from './handlers.js';

/** Support tickets (spec 4.12) with attachments. */
export const supportFeature = defineFeature({
  name: 'support',
  handlers: supportHandlers,
  routes: registerSupport,
});
