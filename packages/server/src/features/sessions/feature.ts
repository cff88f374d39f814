import { defineFeature } from '../../core/feature.js';
import { registerSessionRoutes } from './routes.js';

/** Browser sign-in by e-mail link: the session cookie the dashboard and OAuth consent use. */
export const sessionsFeature = defineFeature({ name: 'sessions', routes: registerSessionRoutes });
