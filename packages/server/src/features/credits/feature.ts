import { defineFeature } from '../../core/feature.js';
import { creditsHandlers } from './handlers.js';

/** The credits operations (spec 8.2): balance, ledger, top-ups, auto top-up. */
export const creditsFeature = defineFeature({ name: 'credits', handlers: creditsHandlers });
