import { defineFeature } from '../../core/feature.js';
import { registerDashboard } from './routes.js';

/** The dashboard: server-rendered pages over the API for a signed-in browser. */
export const dashboardFeature = defineFeature({ name: 'dashboard', routes: registerDashboard });
