import type { SealedColumn } from '../../core/crypto/reseal.js';
import { SEALED_PREFIX, type SecretKeys } from '../../core/crypto/secret-box.js';

/**
 * `webhooks.secret` holds the endpoint's signing secret sealed (AES-256-GCM under a key derived from the
 * server's secret key): every delivery is signed with it, so it must be read back, and a copy of the
 * database must not be able to sign. Rows from before sealing hold it in clear; a start seals them.
 */
export const WEBHOOK_SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: 'webhooks', column: 'secret', key: 'id', purpose: 'webhook-secrets', format: 'sealed-or-plain' },
];

/** The stored form of a new endpoint's signing secret. */
export function sealWebhookSecret(secrets: SecretKeys, secret: string): string {
  return secrets.box('webhook-secrets').seal(secret);
}

/**
 * The signing secret of a stored endpoint. A value in clear (written by an older server, since this one
 * started) is used as it is: it is sealed at the next start.
 */
export function openWebhookSecret(secrets: SecretKeys, stored: string): string {
  if (!stored.startsWith(SEALED_PREFIX)) return stored;
  return secrets.box('webhook-secrets').open(stored);
}
