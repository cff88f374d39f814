import { defineFeature } from '../../core/feature.js';
import { registerGalleryRoutes } from './gallery/routes.js';
import { readHandlers } from './index.js';
import { READS_TABLES } from './tables.js';
import { WALK_JOB_KIND } from './walks/walks.js';

/** The read operations (spec 4.2–4.4): tweets, users, timelines, lists, communities, trends …; galleries. */
export const readsFeature = defineFeature({
  name: 'reads',
  tables: READS_TABLES,
  handlers: readHandlers,
  routes: registerGalleryRoutes,
  // A coverage walk's job has no runner: the request that resumes the walk leases it.
  jobs: [WALK_JOB_KIND],
});
