import { defineFeature } from '../../core/feature.js';
import { registerSimRoutes } from './routes.js';

/** The simulated platform's control endpoints (`/sim/*`, owner only). */
export const simFeature = defineFeature({ name: 'sim', routes: registerSimRoutes });
