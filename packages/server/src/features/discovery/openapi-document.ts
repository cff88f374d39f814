import { type AnyOperation, CONTRACT_HEADER, OPT_IN_CONTRACT, operations } from '@xsvc/sdk/contract';
import { stringify } from 'yaml';
import type { Json, JsonObject } from './json-schema.js';
import { errorSchemas, responseComponents, securitySchemes } from './openapi-components.js';
import { markDeprecatedFields, operationObject } from './openapi-operation.js';
import { TAG_DESCRIPTIONS } from './openapi-tags.js';
import { webhooksObject } from './openapi-webhooks.js';
import { serverVersion } from './version.js';

/** Every `$ref` target under `value`. */
function refs(value: Json, into: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const v of value) refs(v, into);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') into.add(v);
      else refs(v, into);
    }
  }
  return into;
}

/** Keeps the schema components reachable from the rest of the document. */
function reachableSchemas(roots: Json, all: Record<string, JsonObject>): Record<string, JsonObject> {
  const prefix = '#/components/schemas/';
  const keep = new Set<string>();
  const queue = [...refs(roots, new Set())];
  while (queue.length) {
    const ref = queue.pop()!;
    if (!ref.startsWith(prefix)) continue;
    const name = ref.slice(prefix.length);
    if (keep.has(name) || !all[name]) continue;
    keep.add(name);
    queue.push(...refs(all[name], new Set()));
  }
  return Object.fromEntries([...keep].sort().map((name) => [name, all[name]!]));
}

function buildDocument(base: string): JsonObject {
  const ops = operations as readonly AnyOperation[];
  const schemas: Record<string, JsonObject> = {
    ...structuredClone(responseComponents().schemas),
    ...errorSchemas(),
  };
  const paths: Record<string, JsonObject> = {};
  for (const op of ops) {
    paths[op.path] ??= {};
    paths[op.path]![op.method.toLowerCase()] = operationObject(op);
    markDeprecatedFields(op, schemas);
  }
  const webhooks = webhooksObject();
  const components: JsonObject = {
    parameters: {
      ContractHeader: {
        name: CONTRACT_HEADER,
        in: 'header',
        required: false,
        description: `\`${OPT_IN_CONTRACT}\` selects the opt-in contract: snake_case fields, Unix-second timestamps, structured errors (see /docs/opt-in-contract.md).`,
        schema: { type: 'string', enum: [OPT_IN_CONTRACT] },
      },
    },
    headers: {
      Deprecation: {
        description: 'RFC 9745: `@<unix seconds>` of the deprecation of an item this response touches.',
        schema: { type: 'string', pattern: '^@\\d+$' },
      },
      DeprecationLink: {
        description:
          'The deprecation policy: `<…/docs/deprecations.md>; rel="deprecation"; type="text/markdown"`.',
        schema: { type: 'string' },
      },
      RetryAfter: {
        description: 'Seconds to wait before retrying.',
        schema: { type: 'integer', minimum: 0 },
      },
    },
    responses: {
      UnexpectedError: {
        description:
          'Unexpected error (`internal_error`, `service_unavailable`, …): retry with backoff, at most 3 attempts.',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    },
    securitySchemes: securitySchemes(base),
  };
  const tags = [...new Set(ops.map((o) => o.tag))].map((name) => ({
    name,
    description: TAG_DESCRIPTIONS[name],
  }));
  const doc: JsonObject = {
    openapi: '3.1.0',
    info: {
      title: 'Social Data and Automation Service',
      version: serverVersion(),
      summary:
        'Read public platform data, automate actions, monitor accounts and keywords, receive signed webhooks.',
      description:
        'The REST API of the service (v1), served by @xsvc/server. Generated from the same contract as the ' +
        'SDK, the CLI and the MCP tools. Guides: /docs. Deprecations: /docs/deprecations.md.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: base }],
    tags,
    paths,
    webhooks,
    components,
    externalDocs: { description: 'Guides', url: `${base}/docs` },
  };
  components.schemas = reachableSchemas({ paths, webhooks, components } as JsonObject, schemas);
  return doc;
}

const documents = new Map<string, { json: JsonObject; yaml?: string }>();

/**
 * The OpenAPI 3.1 description of the service for an origin, generated from the contract: every operation
 * with its parameters, body, answers (schemas from the zod contract) and error codes; security schemes; the
 * webhook payloads. Built once per origin.
 */
export function openApiDocument(base: string): JsonObject {
  let entry = documents.get(base);
  if (!entry) {
    entry = { json: buildDocument(base) };
    documents.set(base, entry);
  }
  return entry.json;
}

/**
 * The same document as YAML, written so that YAML 1.1 parsers (PyYAML, js-yaml's 1.1 schema) read the same
 * document as YAML 1.2 ones: strings such as `2026-04-29`, `yes` or `0012` are quoted, or a 1.1 parser would
 * read them as a date, a boolean or an octal number.
 */
export function openApiYaml(base: string): string {
  const doc = openApiDocument(base);
  const entry = documents.get(base)!;
  entry.yaml ??= stringify(doc, { aliasDuplicateObjects: false, lineWidth: 0, version: '1.1' });
  return entry.yaml;
}
