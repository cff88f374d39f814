import type { Selectable } from 'kysely';
import type { Database } from './db/schema.js';

/** One recorded attempt of a webhook delivery (the dashboard's delivery log shows them). */
export type DeliveryAttempt = Selectable<Database['webhook_delivery_attempts']>;

/**
 * What one feature offers the others. Features never import each other: a feature that needs another's
 * work asks the server's {@link Ports} (`services.ports`), and the feature that does the work provides it
 * in its `defineFeature({ ports })`. A server without that feature mounted answers the defaults of
 * {@link defaultPorts}.
 */
export interface Ports {
  /** Active monitors of an account, for `GET /account` (the monitors feature). */
  monitorsUsed(accountId: string): Promise<number>;
  /**
   * The attempts of some deliveries of an account's webhook, oldest first (the webhooks feature). Not part
   * of the public API: the dashboard's delivery log reads it.
   */
  deliveryAttempts(
    accountId: string,
    webhookId: string,
    deliveryIds: readonly string[],
  ): Promise<DeliveryAttempt[]>;
  /** Events were just stored in this process: send their deliveries now, not at the next poll (webhooks). */
  eventsStored(): void;
}

/** The ports of a server with none of the providing features mounted. */
export function defaultPorts(): Ports {
  return {
    monitorsUsed: async () => 0,
    deliveryAttempts: async () => [],
    eventsStored: () => {},
  };
}
