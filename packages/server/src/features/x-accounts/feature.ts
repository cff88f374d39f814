import { defineFeature } from '../../core/feature.js';
import { xAccountHandlers } from './handlers.js';
import { registerXAccountRoutes } from './routes.js';
import { X_CONNECTION_TABLES } from './tables.js';

/** Connected X accounts (spec 4.8): login flows, health, the simulated platform's credentials. */
export const xAccountsFeature = defineFeature({
  name: 'x-accounts',
  tables: X_CONNECTION_TABLES,
  handlers: xAccountHandlers,
  routes: registerXAccountRoutes,
});
