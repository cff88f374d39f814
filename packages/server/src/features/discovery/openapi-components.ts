import {
  type AnyOperation,
  errorCodes,
  operations,
  schemas,
  WebhookEventPayloadSchema,
  WebhookTestPayloadSchema,
} from '@xsvc/sdk/contract';
import { z } from 'zod';
import { conversion, type JsonObject, tidy } from './json-schema.js';

/** Where named schemas live in the document. */
export const schemaRef = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });

/** The component name of an operation's own response schema (`getAccount` → `GetAccountResponse`). */
const responseName = (op: AnyOperation) => `${op.id.charAt(0).toUpperCase()}${op.id.slice(1)}Response`;

/** True for operations whose success answer is a JSON body described by the contract. */
export const hasJsonResponse = (op: AnyOperation) => (op.responseKind ?? 'json') === 'json';

function convertible(schema: z.ZodType): boolean {
  try {
    z.toJSONSchema(schema, { ...conversion, io: 'output' });
    return true;
  } catch {
    return false; // a request-only schema (it transforms its input): never part of an answer
  }
}

interface ResponseComponents {
  /** JSON Schemas by component name. */
  readonly schemas: Record<string, JsonObject>;
  /** The component name of each JSON-answering operation's response. */
  readonly byOperation: ReadonlyMap<string, string>;
}

let built: ResponseComponents | undefined;

/**
 * The schemas of every answer, as components: the contract's named schemas (`Tweet`, `UserProfile`, …) keep
 * their names and are referenced wherever they appear, so the document stays a fraction of its inlined size;
 * each operation's response is referenced by name (its own `…Response` component when it is not a named one).
 * Built once: it depends on the contract only.
 */
export function responseComponents(): ResponseComponents {
  if (built) return built;
  const registry = z.registry<{ id: string }>();
  for (const [name, value] of Object.entries(schemas)) {
    if (
      !name.endsWith('Schema') ||
      !(value instanceof z.ZodType) ||
      registry.has(value) ||
      !convertible(value)
    )
      continue;
    registry.add(value, { id: name.slice(0, -'Schema'.length) });
  }
  for (const [name, value] of [
    ['WebhookEventPayload', WebhookEventPayloadSchema],
    ['WebhookTestPayload', WebhookTestPayloadSchema],
  ] as const) {
    if (!registry.has(value)) registry.add(value, { id: name });
  }
  const byOperation = new Map<string, string>();
  for (const op of operations as readonly AnyOperation[]) {
    if (!hasJsonResponse(op)) continue;
    if (!registry.has(op.response)) registry.add(op.response, { id: responseName(op) });
    byOperation.set(op.id, registry.get(op.response)!.id);
  }
  const out = z.toJSONSchema(registry, {
    ...conversion,
    io: 'output',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonObject> };
  const named: Record<string, JsonObject> = {};
  for (const [name, schema] of Object.entries(out.schemas)) named[name] = tidy(schema);
  built = { schemas: named, byOperation };
  return built;
}

/** The component name of the webhook payloads. */
export const WEBHOOK_EVENT_PAYLOAD = 'WebhookEventPayload';
export const WEBHOOK_TEST_PAYLOAD = 'WebhookTestPayload';

/** The error bodies: the default contract's, the opt-in contract's, and OAuth's (RFC 6749). */
export function errorSchemas(): Record<string, JsonObject> {
  return {
    Error: {
      type: 'object',
      description:
        'The error body of the default contract (spec part 7). Under the opt-in contract (`svc-api-contract: ' +
        '2026-04-29`) errors are `StructuredError` instead.',
      required: ['error'],
      properties: {
        error: { type: 'string', description: 'The error code.', enum: [...errorCodes] },
        message: { type: 'string', description: 'What went wrong, for people.' },
        retryAfter: { type: 'integer', description: 'Seconds to wait before retrying (429).' },
        retryAfterMs: {
          type: 'integer',
          description: 'Milliseconds to wait before retrying (`login_cooldown`).',
        },
        reason: {
          type: 'string',
          description: 'Why, when the code has several causes (`deleted`, `protected`, …).',
        },
      },
    },
    StructuredError: {
      type: 'object',
      description: 'The error body of the opt-in contract.',
      required: ['error'],
      properties: {
        error: {
          type: 'object',
          required: ['type', 'code', 'message'],
          properties: {
            type: {
              type: 'string',
              description: 'Error family (`invalid_request_error`, `rate_limit_error`, …).',
            },
            code: { type: 'string', description: 'The error code.', enum: [...errorCodes] },
            message: { type: 'string' },
          },
        },
      },
    },
    OAuthError: {
      type: 'object',
      description: 'OAuth error body (RFC 6749 section 5.2).',
      required: ['error'],
      properties: {
        error: { type: 'string', examples: ['invalid_grant', 'invalid_request', 'invalid_client'] },
        error_description: { type: 'string' },
      },
    },
  };
}

/** Security schemes of spec part 5 (names used by the operations' `security`). */
export function securitySchemes(base: string): JsonObject {
  return {
    ApiKey: {
      type: 'apiKey',
      in: 'header',
      name: 'x-api-key',
      description:
        'An API key: `svc_` and 64 hex characters; on the guest-wallet and paid read routes also a guest key (`sgk_…`).',
    },
    Bearer: {
      type: 'http',
      scheme: 'bearer',
      description: 'An API key (`svc_…`), an OAuth 2.1 access token, or a guest key (scope `paid_reads`).',
    },
    SessionCookie: {
      type: 'apiKey',
      in: 'cookie',
      name: 'session_token',
      description: 'The dashboard session (sign in with `POST /auth/magic-link`).',
    },
    OAuth2: {
      type: 'oauth2',
      description: 'OAuth 2.1 with PKCE (S256 only); dynamic registration at `/api/oauth/register`.',
      flows: {
        authorizationCode: {
          authorizationUrl: `${base}/api/oauth/authorize`,
          tokenUrl: `${base}/api/oauth/token`,
          refreshUrl: `${base}/api/oauth/token`,
          scopes: { 'mcp:tools': 'Use the MCP tools and the REST API with the granted account scopes.' },
        },
      },
    },
    MachinePayment: {
      type: 'http',
      scheme: 'Payment',
      description:
        'A machine payment (MPP): `Authorization: Payment <base64url JSON>` answering a 402 challenge.',
    },
  };
}
