import { z } from 'zod';

/** A full API key (spec 2.3): `svc_` followed by 64 hexadecimal characters. Only its hash is stored. */
export const API_KEY_PATTERN = /^svc_[0-9a-f]{64}$/;

/** An API key as listed (spec 2.3): never the secret, only a recognisable prefix. */
export const ApiKeySchema = z.object({
  id: z.string().describe('Identifier of the key; pass it to revoke the key.'),
  name: z.string().describe('Label given to the key at creation.'),
  prefix: z.string().describe('First characters of the key (`svc_…`), to recognise it; never the secret.'),
  createdAt: z.string().describe('When the key was created (ISO 8601).'),
  lastUsedAt: z.string().optional().describe('When the key last authenticated a request; omitted if never.'),
  isActive: z.boolean().describe('False once the key was revoked; a revoked key never works again.'),
  revokedAt: z.string().optional().describe('When the key was revoked; omitted for active keys.'),
});

/** The answer of key creation: the only time the full key is shown. */
export const CreatedApiKeySchema = z.object({
  id: z.string().describe('Identifier of the key.'),
  name: z.string().describe('Label of the key.'),
  prefix: z.string().describe('First characters of the key, as the list shows them.'),
  createdAt: z.string().describe('When the key was created (ISO 8601).'),
  fullKey: z
    .string()
    .regex(API_KEY_PATTERN, 'must be svc_ followed by 64 hex characters')
    .describe('The secret key (`svc_` + 64 hex). Shown once: store it now, it cannot be read again.'),
});

export type ApiKey = z.infer<typeof ApiKeySchema>;
export type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>;
