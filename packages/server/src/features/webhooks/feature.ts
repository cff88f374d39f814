import { defineFeature } from '../../core/feature.js';
import { DELIVERY_JOB_KIND, listAttemptRows } from './deliveries-repository.js';
import { webhookHandlers } from './handlers.js';
import type { WebhookOptions } from './options.js';
import { wakeWebhookDeliveries, webhookRoutes } from './runtime.js';
import { WEBHOOKS_TABLES } from './tables.js';
import { WEBHOOK_SEALED_COLUMNS } from './webhook-secret.js';

/**
 * The webhooks feature (spec 6): endpoints, and the delivery engine that signs and sends every stored event
 * to them with retries. Options override the defaults of `webhookOptions` (tests inject DNS, jitter and a
 * stopped engine). It offers the others the delivery log and a wake-up for freshly stored events.
 */
export function webhooksFeature(overrides: Partial<WebhookOptions> = {}) {
  return defineFeature({
    name: 'webhooks',
    tables: WEBHOOKS_TABLES,
    sealedColumns: WEBHOOK_SEALED_COLUMNS,
    handlers: webhookHandlers,
    routes: webhookRoutes(overrides),
    jobs: [DELIVERY_JOB_KIND],
    ports: (services) => ({
      deliveryAttempts: (accountId, webhookId, deliveryIds) =>
        listAttemptRows(services.database.db, accountId, webhookId, deliveryIds),
      eventsStored: () => wakeWebhookDeliveries(services.database),
    }),
  });
}
