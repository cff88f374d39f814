import { defineFeature } from '../../core/feature.js';
import { xAccountHandlers } from './handlers.js';
import { registerXAccountRoutes } from './routes.js';
import { X_CONNECTION_TABLES } from './tables.js';

/** Connected X accounts (spec 4.8): login flows, health, the simulated platform's credentials. */
export const xAccountsFeature = defineFeature({
  name: 'x-accounts',
  tables: X_CONNECTION_TABLES,
  // The platform's login state of a challenge waiting for an e-mailed code (`flow_enc`), sealed.
  sealedColumns: [
    {
      table: 'x_connection_challenges',
      column: 'flow_enc',
      key: 'id',
      purpose: 'x-account-sessions',
      format: 'sealed',
    },
  ],
  handlers: xAccountHandlers,
  routes: registerXAccountRoutes,
});
