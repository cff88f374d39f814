import { readFileSync } from 'node:fs';

/**
 * Holds the xapi suite to X, not to us: every request the suite's X stand-in receives is checked against the
 * facts-only table derived from X's own description (`fixtures/x-api-facts.json`, made by
 * `scripts/x-api-facts.ts`): the path template and method, the query parameters' names and values (allowed
 * values of enums and field lists, bounds, patterns, required ones) and the kind of token the Authorization
 * header carries. An unknown or invalid request is a violation; the msw helpers record violations and fail
 * the test that sent them.
 */

/** The facts of one schema, as the generator keeps them. */
export interface XSchemaFacts {
  type?: 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';
  enum?: (string | number)[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  items?: XSchemaFacts;
  properties?: Record<string, XSchemaFacts>;
  required?: string[];
  oneOf?: XSchemaFacts[];
  anyOf?: XSchemaFacts[];
  allOf?: XSchemaFacts[];
}

/** A parameter of an operation. */
export interface XParameterFacts {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  explode?: false;
  schema: XSchemaFacts;
}

/** The kinds of token X's description names. */
export type XTokenKind = 'BearerToken' | 'OAuth2UserToken' | 'UserToken';

/** One token an operation accepts; `scopes` are the OAuth 2.0 scopes it needs. */
export interface XTokenFacts {
  kind: XTokenKind;
  scopes?: string[];
}

/** One operation of X API v2. */
export interface XOperationFacts {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  path: string;
  tokens: XTokenFacts[];
  parameters: XParameterFacts[];
  body?: { required: boolean; contentTypes: string[]; json?: XSchemaFacts };
}

/** The whole table. */
export interface XFacts {
  source: string;
  version: string;
  servers: string[];
  oauth2Scopes: string[];
  operations: XOperationFacts[];
}

/** The table, read once. */
export const X_FACTS: XFacts = JSON.parse(
  readFileSync(new URL('./fixtures/x-api-facts.json', import.meta.url), 'utf8'),
) as XFacts;

interface Matcher {
  op: XOperationFacts;
  regex: RegExp;
  names: string[];
  literalSegments: number;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One regex per operation; the most literal template wins (`/2/users/by` before `/2/users/{id}`). */
const MATCHERS: Matcher[] = X_FACTS.operations
  .map((op) => {
    const names: string[] = [];
    const source = op.path
      .split('/')
      .map((seg) =>
        seg.replace(/\{([^}]+)\}|[^{]+/g, (m, name?: string) => {
          if (name === undefined) return escapeRegex(m);
          names.push(name);
          return '([^/]+)';
        }),
      )
      .join('/');
    const literalSegments = op.path.split('/').filter((s) => s && !s.includes('{')).length;
    return { op, regex: new RegExp(`^${source}$`), names, literalSegments };
  })
  .sort((a, b) => b.literalSegments - a.literalSegments);

/** The operations whose template matches `pathname`, any method, most literal first. */
export function operationsAt(pathname: string): { op: XOperationFacts; params: Record<string, string> }[] {
  return MATCHERS.flatMap((m) => {
    const hit = m.regex.exec(pathname);
    if (!hit) return [];
    const params: Record<string, string> = {};
    m.names.forEach((name, i) => {
      params[name] = decodeURIComponent(hit[i + 1] ?? '');
    });
    return [{ op: m.op, params }];
  });
}

/** The operation of `method` and `pathname`, or `undefined` when X has none. */
export function findOperation(
  method: string,
  pathname: string,
): { op: XOperationFacts; params: Record<string, string> } | undefined {
  return operationsAt(pathname).find((m) => m.op.method === method.toUpperCase());
}

/** The operation with this `operationId` (throws for an unknown id: a typo in a test). */
export function operation(operationId: string): XOperationFacts {
  const op = X_FACTS.operations.find((o) => o.operationId === operationId);
  if (!op) throw new Error(`X has no operation ${operationId}`);
  return op;
}

/** What is wrong with one scalar `value` under `schema`, or `undefined`. */
function scalarProblem(value: string, schema: XSchemaFacts): string | undefined {
  if (schema.enum && !schema.enum.map(String).includes(value)) {
    return `${JSON.stringify(value)} is not one of ${schema.enum.join(', ')}`;
  }
  switch (schema.type) {
    case 'integer':
    case 'number': {
      if (!(schema.type === 'integer' ? /^-?\d+$/ : /^-?\d+(\.\d+)?$/).test(value))
        return `${value} is not a number`;
      const n = Number(value);
      if (schema.minimum !== undefined && n < schema.minimum) return `${n} < ${schema.minimum}`;
      if (schema.maximum !== undefined && n > schema.maximum) return `${n} > ${schema.maximum}`;
      return undefined;
    }
    case 'boolean':
      return value === 'true' || value === 'false' ? undefined : `${value} is not a boolean`;
    default: {
      if (schema.minLength !== undefined && value.length < schema.minLength)
        return `shorter than ${schema.minLength}`;
      if (schema.maxLength !== undefined && value.length > schema.maxLength)
        return `longer than ${schema.maxLength}`;
      if (schema.pattern && !new RegExp(schema.pattern).test(value))
        return `${value} does not match ${schema.pattern}`;
      if (
        schema.format === 'date-time' &&
        !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value)
      ) {
        return `${value} is not an RFC 3339 date-time`;
      }
      return undefined;
    }
  }
}

/** What is wrong with a parameter's raw value (comma-separated for an array), or `undefined`. */
function parameterProblem(raw: string, schema: XSchemaFacts): string | undefined {
  if (schema.type !== 'array') return scalarProblem(raw, schema);
  const values = raw.split(',');
  if (schema.minItems !== undefined && values.length < schema.minItems)
    return `fewer than ${schema.minItems} values`;
  if (schema.maxItems !== undefined && values.length > schema.maxItems)
    return `more than ${schema.maxItems} values`;
  if (schema.uniqueItems && new Set(values).size !== values.length) return 'repeats a value';
  for (const v of values) {
    const problem = scalarProblem(v, schema.items ?? {});
    if (problem) return problem;
  }
  return undefined;
}

/**
 * What is wrong with a JSON body value under `schema` (required properties, and every scalar's enum, bounds
 * and pattern, through objects and arrays), each problem named by its location (`body.target_user_id`).
 * Properties the table does not describe are not judged (it keeps no `additionalProperties`), nor is
 * `oneOf` / `anyOf` / `allOf`.
 */
function jsonProblems(value: unknown, schema: XSchemaFacts, at: string): string[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) {
    if (schema.type !== 'array') return [];
    const problems: string[] = [];
    if (schema.minItems !== undefined && value.length < schema.minItems)
      problems.push(`${at}: fewer than ${schema.minItems} items`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems)
      problems.push(`${at}: more than ${schema.maxItems} items`);
    value.forEach((v, i) => {
      problems.push(...jsonProblems(v, schema.items ?? {}, `${at}[${i}]`));
    });
    return problems;
  }
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const problems = (schema.required ?? []).filter((k) => !(k in o)).map((k) => `${at}.${k} is required`);
    for (const [k, v] of Object.entries(o)) {
      const sub = schema.properties?.[k];
      if (sub) problems.push(...jsonProblems(v, sub, `${at}.${k}`));
    }
    return problems;
  }
  if (schema.type === 'object' || schema.type === 'array')
    return [`${at}: ${JSON.stringify(value)} is not an ${schema.type}`];
  const problem = scalarProblem(String(value), schema);
  return problem ? [`${at}: ${problem}`] : [];
}

/** The tokens the stand-in knows: the app's bearer token and the users' OAuth 2.0 tokens with their scopes. */
export interface XTokens {
  appToken: string;
  userTokens?: Record<string, readonly string[]>;
}

/** The token an Authorization header carries, as X's description names the kinds. */
export function tokenOf(
  authorization: string | null,
  tokens: XTokens,
): { kind: XTokenKind; scopes?: readonly string[] } | undefined {
  if (!authorization) return undefined;
  if (authorization.startsWith('OAuth ')) return { kind: 'UserToken' };
  const bearer = /^Bearer (.+)$/.exec(authorization)?.[1];
  if (bearer === undefined) return undefined;
  const scopes = tokens.userTokens?.[bearer];
  // An unknown bearer token is still an app token as far as the request's shape goes: X answers it 401.
  return scopes ? { kind: 'OAuth2UserToken', scopes } : { kind: 'BearerToken' };
}

/** A request the table does not allow. */
export interface XFactViolation {
  method: string;
  url: string;
  problem: string;
}

/** The outcome of {@link checkXRequest}: the operation the request is, and what is wrong with it. */
export interface XRequestCheck {
  op?: XOperationFacts;
  problems: string[];
}

/**
 * Checks one request (method, URL, Authorization header and, when given, its parsed JSON body) against the
 * table. `body` is left out for a request without a JSON body.
 */
export function checkXRequest(
  request: { method: string; url: string; headers: { get(name: string): string | null } },
  tokens: XTokens,
  body?: unknown,
): XRequestCheck {
  const url = new URL(request.url);
  const found = findOperation(request.method, url.pathname);
  if (!found) {
    const others = operationsAt(url.pathname).map((m) => m.op.method);
    return {
      problems: [
        others.length
          ? `X has no ${request.method} ${url.pathname} (only ${others.join(', ')})`
          : `X has no operation at ${url.pathname}`,
      ],
    };
  }
  const { op, params } = found;
  const problems: string[] = [];
  for (const prm of op.parameters.filter((p) => p.in === 'path')) {
    const problem = parameterProblem(params[prm.name] ?? '', prm.schema);
    if (problem) problems.push(`path parameter ${prm.name}: ${problem}`);
  }
  const query = op.parameters.filter((p) => p.in === 'query');
  const seenNames = new Set<string>();
  for (const [name, value] of url.searchParams) {
    const prm = query.find((p) => p.name === name);
    if (!prm) {
      problems.push(`${op.operationId} has no query parameter ${name}`);
      continue;
    }
    if (seenNames.has(name)) problems.push(`query parameter ${name} is repeated`);
    seenNames.add(name);
    const problem = parameterProblem(value, prm.schema);
    if (problem) problems.push(`query parameter ${name}: ${problem}`);
  }
  for (const prm of query.filter((p) => p.required && !url.searchParams.has(p.name))) {
    problems.push(`${op.operationId} needs query parameter ${prm.name}`);
  }
  if (body !== undefined && op.body?.json) problems.push(...jsonProblems(body, op.body.json, 'body'));
  const token = tokenOf(request.headers.get('authorization'), tokens);
  if (!token) {
    problems.push('no Authorization token');
  } else {
    const accepted = op.tokens.filter((t) => t.kind === token.kind);
    if (accepted.length === 0) {
      problems.push(
        `${op.operationId} takes ${op.tokens.map((t) => t.kind).join(' or ')}, not ${token.kind}`,
      );
    } else if (
      token.kind === 'OAuth2UserToken' &&
      !accepted.some((t) => (t.scopes ?? []).every((s) => token.scopes?.includes(s)))
    ) {
      problems.push(`${op.operationId} needs the scopes ${accepted[0]?.scopes?.join(' ')}`);
    }
  }
  return { op, problems };
}

/** Collects violations across a test; {@link XFactsChecker.take} hands them over and starts afresh. */
export class XFactsChecker {
  private violations: XFactViolation[] = [];

  constructor(readonly tokens: XTokens) {}

  /** Checks `request` (with its parsed JSON `body`, if it has one); a violation is recorded. Returns the check. */
  check(request: Request, body?: unknown): XRequestCheck {
    const result = checkXRequest(request, this.tokens, body);
    for (const problem of result.problems) {
      this.violations.push({ method: request.method, url: request.url, problem });
    }
    return result;
  }

  /** The violations recorded since the last call. */
  take(): XFactViolation[] {
    const out = this.violations;
    this.violations = [];
    return out;
  }
}
