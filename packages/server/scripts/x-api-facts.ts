/**
 * Derives the facts-only table of X API v2 (`test/xapi/fixtures/x-api-facts.json`) from X's published
 * OpenAPI description. Run by hand when X publishes a new version:
 *
 *   pnpm -C packages/server exec tsx scripts/x-api-facts.ts [path/to/openapi.json]
 *   npx biome check --write packages/server/test/xapi/fixtures/x-api-facts.json
 *
 * The default input is `../shared/reference/x-api-v2/openapi-2.167.json` beside the repository (a clone
 * without it passes the path). Only facts are kept: for every operation its method, path template,
 * operation id, parameters (where, required, type, allowed values, bounds, pattern), the tokens it accepts
 * (`BearerToken`, `OAuth2UserToken` with its scopes, `UserToken`) and the top level of its JSON body. No
 * descriptions, summaries, examples or response schemas are copied. The tests check every request the
 * xapi suite sends against this table (test/xapi/x-facts.ts); they never read the description itself.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

type Json = Record<string, unknown>;

const here = dirname(fileURLToPath(import.meta.url));
const input = resolve(
  process.argv[2] ?? resolve(here, '../../../../shared/reference/x-api-v2/openapi-2.167.json'),
);
const output = resolve(here, '../test/xapi/fixtures/x-api-facts.json');

const doc = JSON.parse(readFileSync(input, 'utf8')) as Json;
const components = doc.components as Record<string, Record<string, Json>>;
const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const;

/** Follows a local `$ref` (`#/components/<kind>/<name>`). */
function deref(node: Json): Json {
  let cur = node;
  for (let i = 0; i < 10 && typeof cur.$ref === 'string'; i++) {
    const [, , kind, name] = (cur.$ref as string).split('/');
    const next = kind && name ? components[kind]?.[name] : undefined;
    if (!next) throw new Error(`unresolved ${cur.$ref as string}`);
    cur = next;
  }
  return cur;
}

/** The facts of a schema: type, allowed values, bounds, pattern, format; items and (to `depth`) properties. */
function schemaFacts(raw: Json | undefined, depth: number): Json {
  if (!raw) return {};
  const s = deref(raw);
  const out: Json = {};
  for (const key of [
    'type',
    'enum',
    'format',
    'pattern',
    'minimum',
    'maximum',
    'minLength',
    'maxLength',
    'minItems',
    'maxItems',
    'uniqueItems',
  ]) {
    if (s[key] !== undefined) out[key] = s[key];
  }
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
    const alts = s[key] as Json[] | undefined;
    if (alts && depth > 0) out[key] = alts.map((a) => schemaFacts(a, depth - 1));
  }
  if (s.items) out.items = schemaFacts(s.items as Json, depth);
  const props = s.properties as Record<string, Json> | undefined;
  if (props && depth > 0) {
    out.properties = Object.fromEntries(
      Object.entries(props).map(([name, p]) => [name, schemaFacts(p, depth - 1)]),
    );
    if (Array.isArray(s.required)) out.required = s.required;
  }
  return out;
}

/** `BearerToken`, `OAuth2UserToken` (with the scopes it needs) or `UserToken`, as the operation lists them. */
function tokens(security: Json[] | undefined): Json[] {
  const list = security ?? (doc.security as Json[] | undefined) ?? [];
  return list.flatMap((req) =>
    Object.entries(req).map(([kind, scopes]) =>
      kind === 'OAuth2UserToken' ? { kind, scopes: [...(scopes as string[])].sort() } : { kind },
    ),
  );
}

const operations: Json[] = [];
for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
  const shared = (item.parameters as Json[] | undefined) ?? [];
  for (const method of METHODS) {
    const op = item[method] as Json | undefined;
    if (!op) continue;
    const parameters = [...shared, ...((op.parameters as Json[] | undefined) ?? [])].map((p) => {
      const prm = deref(p);
      return {
        name: prm.name,
        in: prm.in,
        required: prm.required === true,
        ...(prm.explode === false ? { explode: false } : {}),
        schema: schemaFacts(prm.schema as Json | undefined, 1),
      };
    });
    const body = op.requestBody ? deref(op.requestBody as Json) : undefined;
    const content = (body?.content ?? {}) as Record<string, Json>;
    operations.push({
      operationId: op.operationId,
      method: method.toUpperCase(),
      path,
      tokens: tokens(op.security as Json[] | undefined),
      parameters,
      ...(body
        ? {
            body: {
              required: body.required === true,
              contentTypes: Object.keys(content).sort(),
              ...(content['application/json']
                ? { json: schemaFacts(content['application/json'].schema as Json, 2) }
                : {}),
            },
          }
        : {}),
    });
  }
}
operations.sort(
  (a, b) => String(a.path).localeCompare(String(b.path)) || String(a.method).localeCompare(String(b.method)),
);

const info = doc.info as Json;
const facts = {
  source: `X API v2 OpenAPI description, version ${String(info.version)} (facts only: no descriptions or examples)`,
  version: info.version,
  servers: (doc.servers as Json[] | undefined)?.map((s) => s.url),
  oauth2Scopes: Object.keys(
    ((components.securitySchemes?.OAuth2UserToken?.flows as Json)?.authorizationCode as Json)?.scopes as Json,
  ).sort(),
  operations,
};
writeFileSync(output, `${JSON.stringify(facts, null, 1)}\n`);
console.log(`${operations.length} operations → ${output}`);
