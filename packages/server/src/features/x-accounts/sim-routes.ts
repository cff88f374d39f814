import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireOwner } from '../../core/auth/request-principal.js';
import { HttpError } from '../../core/http/errors.js';
import { parseInput } from '../../core/http/parse-input.js';
import { control } from '../../core/http/platform-errors.js';
import type { Services } from '../../core/services.js';
import { SimulatedLogins } from '../../platform/simulated/index.js';

const CredentialsBody = z.object({
  password: z.string().min(1).max(128).optional(),
  email: z.email().nullable().optional(),
  totpSecret: z.string().trim().min(1).max(128).nullable().optional(),
  emailCodes: z.number().int().min(0).max(3).optional(),
});
const UserParams = z.object({ username: z.string().min(1) });
const MediaParams = z.object({ id: z.string().regex(/^\d{1,25}$/, 'must be a numeric media id') });

/**
 * The simulated platform's side of connected accounts (simulated mode only):
 *
 * - `PUT /sim/users/:username/credentials` (owner): an account's own password, e-mail, authenticator secret
 *   and how many e-mailed codes its logins ask for (without them it logs in with `sim-password`);
 * - `GET /sim/users/:username/inbox` (owner): the codes the platform e-mailed to the account;
 * - `GET /sim/media/:id`: an uploaded file, public like the platform's media host.
 */
export function registerXAccountSimRoutes(app: FastifyInstance, services: Services): void {
  if (services.config.platform !== 'simulated') return;
  const logins = new SimulatedLogins(services.database.db, services.clock);
  const owner = (request: FastifyRequest) =>
    requireOwner(request, services, 'the simulated platform control');

  app.put('/sim/users/:username/credentials', async (request) => {
    await owner(request);
    const { username } = parseInput(UserParams, request.params, 'path');
    const body = parseInput(CredentialsBody, request.body, 'body');
    await control(() => logins.setCredentials(username, body));
    return { success: true };
  });

  app.get('/sim/users/:username/inbox', async (request) => {
    await owner(request);
    const { username } = parseInput(UserParams, request.params, 'path');
    return { messages: await control(() => logins.inbox(username)) };
  });

  app.get('/sim/media/:id', async (request, reply) => {
    const { id } = parseInput(MediaParams, request.params, 'path');
    const row = await services.database.db
      .selectFrom('simulated_uploads')
      .select(['mime_type', 'data', 'source_url'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (row?.data) {
      return reply
        .header('content-type', row.mime_type)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(Buffer.from(row.data, 'base64'));
    }
    if (row?.source_url) return reply.redirect(row.source_url, 302);
    throw new HttpError('not_found', `no media ${id}`);
  });
}
