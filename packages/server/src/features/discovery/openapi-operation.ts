import type { AnyOperation } from '@xsvc/sdk/contract';
import { type Json, type JsonObject, jsonSchema } from './json-schema.js';
import { hasJsonResponse, responseComponents } from './openapi-components.js';
import { ASK_OPERATIONS, errorResponses, successResponses } from './openapi-responses.js';

const MEDIA_TYPES = {
  json: 'application/json',
  multipart: 'multipart/form-data',
  form: 'application/x-www-form-urlencoded',
} as const;

/** Parameters of one location from an object schema: its properties, required as the schema says. */
function parameters(op: AnyOperation, where: 'path' | 'query'): JsonObject[] {
  const schema = where === 'path' ? op.params : op.query;
  if (!schema) return [];
  const json = jsonSchema(schema, 'input');
  const required = new Set((json.required as string[] | undefined) ?? []);
  const props = (json.properties ?? {}) as Record<string, JsonObject>;
  const deprecatedParams = op.deprecated?.params ?? {};
  return Object.entries(props).map(([name, prop]) => {
    const { description, ...rest } = prop;
    const param: JsonObject = { name, in: where, required: where === 'path' || required.has(name) };
    const replacement = deprecatedParams[name];
    const notes = [typeof description === 'string' ? description : undefined];
    if (replacement !== undefined) {
      param.deprecated = true;
      notes.push(
        `Deprecated: ${replacement ? `use \`${replacement}\` instead` : 'no replacement'} (see /docs/deprecations.md).`,
      );
    }
    const text = notes.filter(Boolean).join(' ');
    if (text) param.description = text;
    param.schema = rest;
    if (rest.type === 'array') {
      param.style = 'form';
      param.explode = false;
    }
    return param;
  });
}

/** The contract header, then the request headers the operation declares (`Idempotency-Key`). */
function headerParameters(op: AnyOperation): JsonObject[] {
  const out: JsonObject[] = [];
  if (op.path.startsWith('/api/v1/')) out.push({ $ref: '#/components/parameters/ContractHeader' });
  for (const [name, header] of Object.entries(op.headers ?? {})) {
    if (!header) continue;
    out.push({
      name,
      in: 'header',
      required: header.required,
      description: header.description,
      schema: jsonSchema(header.schema, 'input'),
    });
  }
  return out;
}

function requestBody(op: AnyOperation): JsonObject | undefined {
  if (!op.body) return undefined;
  const schema = jsonSchema(op.body, 'input');
  const encodings: (keyof typeof MEDIA_TYPES)[] = ASK_OPERATIONS.has(op.id)
    ? ['json', 'form']
    : [op.bodyEncoding ?? 'json'];
  const content: JsonObject = {};
  for (const e of encodings) content[MEDIA_TYPES[e]] = { schema };
  return { required: !op.body.safeParse(undefined).success, content };
}

function security(op: AnyOperation): Json[] {
  if (op.auth.includes('none')) return [];
  const out: JsonObject[] = [];
  const add = (name: string, scopes: string[] = []) => {
    if (!out.some((s) => name in s)) out.push({ [name]: scopes });
  };
  for (const mode of op.auth) {
    // A guest key travels in either header too (the reference lists the api-key header for it).
    if (mode === 'apiKey' || mode === 'guest') {
      add('ApiKey');
      add('Bearer');
    } else if (mode === 'session') add('SessionCookie');
    else if (mode === 'oauth') add('OAuth2', ['mcp:tools']);
    else if (mode === 'payment') add('MachinePayment');
  }
  return out;
}

function costNote(op: AnyOperation): string {
  const c = op.cost;
  if (c.kind === 'free') return 'Free.';
  if (c.kind === 'per_call') return `Costs ${c.credits} credit${c.credits === 1 ? '' : 's'} per call.`;
  if (c.kind === 'per_result') return `Costs ${c.credits} credit${c.credits === 1 ? '' : 's'} per result.`;
  return `Metered: ${c.note}`;
}

/** The OpenAPI operation object of a contract operation. */
export function operationObject(op: AnyOperation): JsonObject {
  const notes = [op.description ?? `${op.summary}.`];
  if (!/credit|free/i.test(notes[0]!)) notes.push(costNote(op));
  if (op.pagination === 'A')
    notes.push('Paginated (style A): `after` and `limit` in, `hasMore` and `nextCursor` out.');
  if (op.pagination === 'B')
    notes.push('Paginated (style B): `cursor` in, `has_next_page` and `next_cursor` out.');
  const out: JsonObject = {
    operationId: op.id,
    tags: [op.tag],
    summary: op.summary,
    description: notes.join('\n\n'),
  };
  const params = [...parameters(op, 'path'), ...parameters(op, 'query'), ...headerParameters(op)];
  if (params.length) out.parameters = params;
  const body = requestBody(op);
  if (body) out.requestBody = body;
  out.responses = { ...successResponses(op), ...errorResponses(op) };
  out.security = security(op);
  if (op.deprecated?.operation) out.deprecated = true;
  out['x-auth'] = [...op.auth];
  out['x-cost'] = { ...op.cost } as JsonObject;
  if (op.pagination) out['x-pagination'] = { style: op.pagination, ...(op.items && { items: op.items }) };
  if (op.writeAction) out['x-write-action'] = op.writeAction;
  out['x-idempotent'] = op.idempotent;
  return out;
}

/** Marks the deprecated response fields of an operation in its response component (spec 9.2). */
export function markDeprecatedFields(op: AnyOperation, components: Record<string, JsonObject>): void {
  const fields = op.deprecated?.fields;
  if (!fields || !hasJsonResponse(op)) return;
  const name = responseComponents().byOperation.get(op.id);
  const props = name ? (components[name]?.properties as Record<string, JsonObject> | undefined) : undefined;
  for (const [field, replacement] of Object.entries(fields)) {
    const prop = props?.[field];
    if (!prop) continue;
    prop.deprecated = true;
    if (replacement && typeof prop.description === 'string')
      prop.description += ` Use \`${replacement}\` instead.`;
  }
}
