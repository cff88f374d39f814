import type { FastifyInstance } from 'fastify';
import { registerFormBodies } from '../../core/http/form-body.js';
import type { Services } from '../../core/services.js';
import { registerDashboardAssets } from './assets.js';
import { DashboardRoutes } from './http.js';
import { registerAccount } from './sections/account.js';
import { registerAccounts } from './sections/accounts.js';
import { registerJobs } from './sections/jobs.js';
import { registerKeys } from './sections/keys.js';
import { registerMonitors } from './sections/monitors.js';
import { registerSupportSection } from './sections/support.js';
import { registerWebhooks } from './sections/webhooks.js';
import { registerSignIn } from './sign-in.js';

/**
 * The self-hosted dashboard at `/dashboard` (spec 5.1-5.3 flows, and what an operator needs to see):
 * server-rendered pages over this server's own REST API, called in-process as the signed-in session, with a
 * CSRF token on every form and a same-origin check on every action. Works without JavaScript; the small
 * script served beside the stylesheet only adds copy buttons and the live event feed.
 */
export function registerDashboard(app: FastifyInstance, services: Services): void {
  registerFormBodies(app, ['POST /dashboard/sign-in', 'POST /dashboard/sign-out']);
  registerDashboardAssets(app);
  registerSignIn(app, services);
  const routes = new DashboardRoutes(app, services);
  registerAccount(routes);
  registerKeys(routes);
  registerMonitors(routes);
  registerWebhooks(routes);
  registerJobs(routes);
  registerAccounts(routes);
  registerSupportSection(routes);
}
