import { defineFeature } from '../../core/feature.js';
import { registerGalleryRoutes } from './gallery/routes.js';
import { readHandlers } from './index.js';
import { READS_TABLES } from './tables.js';

/** The read operations (spec 4.2–4.4): tweets, users, timelines, lists, communities, trends …; galleries. */
export const readsFeature = defineFeature({
  name: 'reads',
  tables: READS_TABLES,
  handlers: readHandlers,
  routes: registerGalleryRoutes,
});
