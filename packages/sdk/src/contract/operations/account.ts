import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { AccountSchema, LOCALES } from '../schemas/account.js';
import { SuccessSchema } from '../schemas/common.js';

const keyOrToken = ['apiKey', 'oauth', 'session'] as const;

export const getAccount = defineOperation({
  id: 'getAccount',
  method: 'GET',
  path: '/api/v1/account',
  tag: 'Account',
  summary: 'Get the account: plan, monitor billing and credit balances',
  sdk: ['account', 'get'],
  auth: keyOrToken,
  params: null,
  query: null,
  body: null,
  success: [200],
  response: AccountSchema,
  errors: [],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  deprecated: { fields: { monitorsAllowed: '' }, since: 1767225600 },
  example: 'account get',
});

export const updateAccount = defineOperation({
  id: 'updateAccount',
  method: 'PATCH',
  path: '/api/v1/account',
  tag: 'Account',
  summary: 'Set the account locale',
  sdk: ['account', 'update'],
  auth: keyOrToken,
  params: null,
  query: null,
  body: z.object({ locale: z.enum(LOCALES).describe('Account locale.') }),
  success: [200],
  response: SuccessSchema,
  errors: ['invalid_input'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'account update --locale es',
});

export const setXIdentity = defineOperation({
  id: 'setXIdentity',
  method: 'PUT',
  path: '/api/v1/account/x-identity',
  tag: 'Account',
  summary: 'Link a platform username to the account',
  sdk: ['account', 'setXIdentity'],
  auth: keyOrToken,
  params: null,
  query: null,
  body: z.object({
    username: z
      .string()
      .regex(/^@?[A-Za-z0-9_]{1,15}$/, 'must be a username of 1-15 letters, digits or underscores')
      .describe('Platform username (a leading @ is stripped).'),
  }),
  success: [200],
  response: z.object({ success: z.boolean(), xUsername: z.string() }),
  errors: ['invalid_input'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'account set-x-identity --username jack',
});

/** The Account operations. */
export const accountOperations = [getAccount, updateAccount, setXIdentity] as const;
