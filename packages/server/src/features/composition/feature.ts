import { defineFeature } from '../../core/feature.js';
import { compositionHandlers, registerComposition } from './index.js';
import { COMPOSITION_TABLES } from './tables.js';

/** The Composition operations (spec 4.9): compose, drafts, cached styles, the radar. */
export const compositionFeature = defineFeature({
  name: 'composition',
  tables: COMPOSITION_TABLES,
  handlers: compositionHandlers,
  routes: registerComposition,
});
