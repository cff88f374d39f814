import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireOwner } from '../../core/auth/request-principal.js';
import { payChallenge } from '../../core/billing/payments/network.js';
import { parseInput } from '../../core/http/parse-input.js';
import type { Services } from '../../core/services.js';

const PayBody = z.object({
  challenge: z.string().min(1).max(4096).describe('The `WWW-Authenticate` value of a 402 answer.'),
});

/**
 * The local payment network of the simulated platform (spec 5.4 end to end on one machine):
 * `POST /sim/payments { challenge }` pays a machine-payment challenge of this server and answers
 * `{ authorization, reference, payload }`, where `authorization` is the `Authorization: Payment …` value to
 * retry the read with. Owner credentials only, and only when the platform is simulated.
 */
export function registerPaymentNetworkRoutes(app: FastifyInstance, services: Services): void {
  if (services.config.platform !== 'simulated') return;
  app.post('/sim/payments', async (request) => {
    await requireOwner(request, services, 'paying on the simulated payment network');
    const { challenge } = parseInput(PayBody, request.body, 'body');
    return payChallenge(services, challenge);
  });
}
