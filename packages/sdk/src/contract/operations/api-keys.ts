import { z } from 'zod';
import { limits } from '../limits.js';
import { defineOperation } from '../operation.js';
import { ApiKeySchema, CreatedApiKeySchema } from '../schemas/api-keys.js';
import { SuccessSchema } from '../schemas/common.js';

/**
 * Spec 5.2: the dashboard session manages keys (the first key can only be created with it); a note adds that
 * an API key can manage the keys of its own account. Never an OAuth access token or a guest key: a key
 * minted with either would outlive the grant (or the wallet) that it came from.
 */
const keyManagers = ['session', 'apiKey'] as const;

export const listApiKeys = defineOperation({
  id: 'listApiKeys',
  method: 'GET',
  path: '/api/v1/api-keys',
  tag: 'API Keys',
  summary: 'List the API keys of the account, without their secrets',
  description: `Returns every key (at most ${limits.unpaginatedListMax}), active and revoked, without pagination. Secrets are never listed.`,
  sdk: ['apiKeys', 'list'],
  auth: keyManagers,
  params: null,
  query: null,
  body: null,
  success: [200],
  response: z.object({
    keys: z.array(ApiKeySchema).max(limits.unpaginatedListMax).describe('The keys, without secret values.'),
  }),
  errors: [],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'api-keys list',
});

export const createApiKey = defineOperation({
  id: 'createApiKey',
  method: 'POST',
  path: '/api/v1/api-keys',
  tag: 'API Keys',
  summary: 'Create an API key and show its secret once',
  description:
    'The answer carries `fullKey` (`svc_` + 64 hex), shown only this once: only a hash is stored. ' +
    `An account holds at most ${limits.activeApiKeys} active keys; one more answers 403 \`api_key_limit_reached\`. ` +
    'Several active keys allow rotation without downtime.',
  sdk: ['apiKeys', 'create'],
  auth: keyManagers,
  params: null,
  query: null,
  body: z.object({
    name: z.string().min(1).optional().describe('Label to recognise the key by (for example `production`).'),
  }),
  success: [201],
  response: CreatedApiKeySchema,
  errors: ['invalid_input', 'api_key_limit_reached'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: false,
  example: 'api-keys create --name production',
});

export const revokeApiKey = defineOperation({
  id: 'revokeApiKey',
  method: 'DELETE',
  path: '/api/v1/api-keys/{id}',
  tag: 'API Keys',
  summary: 'Revoke an API key at once, for good',
  description: 'The key stops working immediately and cannot be reactivated.',
  sdk: ['apiKeys', 'revoke'],
  auth: keyManagers,
  params: z.object({ id: z.string().min(1).describe('Identifier of the key (from `api-keys list`).') }),
  query: null,
  body: null,
  success: [200],
  response: SuccessSchema,
  errors: ['invalid_input', 'not_found'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'api-keys revoke 1900000000000000001',
});

/** The API Keys operations. */
export const apiKeysOperations = [listApiKeys, createApiKey, revokeApiKey] as const;
