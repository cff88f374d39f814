import { defineFeature } from '../../core/feature.js';
import { compositionHandlers, registerComposition } from './index.js';

/** The Composition operations (spec 4.9): compose, drafts, cached styles, the radar. */
export const compositionFeature = defineFeature({
  name: 'composition',
  handlers: compositionHandlers,
  routes: registerComposition,
});
