import { STATUS_CODES } from 'node:http';
import { type AnyOperation, errorInfo } from '@xsvc/sdk/contract';
import type { JsonObject } from './json-schema.js';
import { responseComponents, schemaRef } from './openapi-components.js';

/** The operations whose answers and failures are the documentation search's own (spec 4.2). */
export const ASK_OPERATIONS = new Set(['askQuery', 'askPost']);

function statusText(status: number): string {
  return STATUS_CODES[status] ?? `Status ${status}`;
}

function successContent(op: AnyOperation): JsonObject | undefined {
  switch (op.responseKind ?? 'json') {
    case 'empty':
      return undefined;
    case 'text':
      return { 'application/yaml': { schema: { type: 'string' } } };
    case 'binary':
      return {
        'application/octet-stream': {
          schema: { type: 'string', contentMediaType: 'application/octet-stream' },
        },
      };
    default: {
      const name = responseComponents().byOperation.get(op.id);
      const schema = name ? schemaRef(name) : {};
      if (op.id === 'getApiCatalog') return { 'application/linkset+json': { schema } };
      if (ASK_OPERATIONS.has(op.id)) {
        return {
          'application/json': { schema },
          'text/event-stream': {
            schema: {
              type: 'string',
              description:
                'Server-sent events: `begin-nlweb-response`, one `result` per result, `end-nlweb-response`.',
            },
          },
        };
      }
      return { 'application/json': { schema } };
    }
  }
}

/** The success answers of an operation, with the deprecation headers of spec 9.4 where they apply. */
export function successResponses(op: AnyOperation): JsonObject {
  const out: JsonObject = {};
  for (const status of op.success) {
    const response: JsonObject = {
      description:
        status === 202 && op.writeAction
          ? 'Accepted: the write is pending; poll the write action.'
          : statusText(status),
    };
    const content = successContent(op);
    if (content && status !== 204 && status !== 302) response.content = content;
    const headers: JsonObject = {};
    if (status === 302)
      headers.Location = { description: 'Where the browser goes next.', schema: { type: 'string' } };
    if (op.deprecated) {
      headers.Deprecation = { $ref: '#/components/headers/Deprecation' };
      headers.Link = { $ref: '#/components/headers/DeprecationLink' };
    }
    if (Object.keys(headers).length) response.headers = headers;
    out[String(status)] = response;
  }
  return out;
}

/** The error codes an operation may answer, by status: its own, plus the standard ones of spec 4.1. */
export function errorCodesByStatus(op: AnyOperation): Map<number, string[]> {
  const codes = new Set<string>(op.errors);
  const anonymous = op.auth.includes('none');
  if (op.params || op.query || op.body) codes.add('invalid_input');
  // A JSON content type is parsed on every operation that takes a body, multipart ones included.
  if (op.body) codes.add('invalid_json');
  if (op.method !== 'GET') {
    // A request that may carry a body: its size and content type are checked before the operation runs,
    // and a cross-origin one authenticated by the session cookie alone is refused (CSRF).
    codes.add('body_too_large');
    codes.add('unsupported_media_type');
    if (op.auth.includes('session')) codes.add('forbidden');
  }
  if (!anonymous) codes.add('unauthenticated');
  // An account's requests count per account; anonymous reads count per client address (spec 8.1 tiers).
  if (!anonymous || op.method === 'GET') codes.add('rate_limit_exceeded');
  if (op.auth.includes('payment')) {
    codes.add('no_credits');
    codes.add('payment_failed'); // a Payment credential that cannot be read or settled
  }
  const byStatus = new Map<number, string[]>();
  for (const code of codes) {
    const { status } = errorInfo(code);
    if (status < 400) continue; // x_write_unconfirmed is a 202, described with the success answers
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

/** The operations whose 400 answers are OAuth error bodies, with the codes they use. */
const OAUTH_400 = new Map([
  ['oauthToken', '`invalid_grant`, `invalid_request`, `invalid_client`, …'],
  ['oauthRevoke', '`invalid_request`, …'],
  ['oauthRegister', '`invalid_redirect_uri`, `invalid_client_metadata`'],
]);

/** The failure answers of an operation: the `Error` body restricted to its codes, per status. */
export function errorResponses(op: AnyOperation): JsonObject {
  const out: JsonObject = {};
  if (ASK_OPERATIONS.has(op.id)) {
    const ask = (code: string, why: string): JsonObject => ({
      description: `\`${code}\`: ${why}`,
      content: { 'application/json': { schema: schemaRef('AskErrorBody') } },
    });
    out['400'] = ask('INVALID_QUERY', 'the query is missing, empty or longer than 500 characters.');
    out['413'] = ask('TOKEN_LIMIT', 'the request body is over 8 KiB.');
    out['429'] = {
      ...ask('RATE_LIMITED', 'too many searches from one client address; wait `Retry-After` seconds.'),
      headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
    };
    out['502'] = ask('INTERNAL_ERROR', 'the search failed.');
    return out;
  }
  // The token, revocation and registration endpoints refuse in OAuth's shape (RFC 6749 5.2, RFC 7591 3.2.2).
  const oauth400 = OAUTH_400.get(op.id);
  if (oauth400) {
    out['400'] = {
      description: `OAuth error (${oauth400}).`,
      content: { 'application/json': { schema: schemaRef('OAuthError') } },
    };
  }
  for (const [status, codes] of errorCodesByStatus(op)) {
    const key = String(status);
    if (out[key]) continue;
    const list = codes.map((c) => `\`${c}\``).join(', ');
    const response: JsonObject = {
      description: `${statusText(status)}: ${list}.`,
      content: {
        'application/json': {
          schema: { allOf: [schemaRef('Error'), { properties: { error: { enum: codes } } }] },
        },
      },
    };
    if (status === 429) response.headers = { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } };
    out[key] = response;
  }
  out.default = { $ref: '#/components/responses/UnexpectedError' };
  return out;
}
