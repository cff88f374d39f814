import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * A fuzz suite generated from the server's own `/openapi.json`: every operation gets requests with malformed
 * JSON, wrong types, huge and lone-surrogate strings, out-of-range numbers, bad percent-encoding, over-long
 * path parameters, bad cookies and credentials, and wrong content types. Every answer must be below 500,
 * and every error body must be the one the document declares for its status (`{ error: <code>, message }`
 * on the API). Fixed seed; `XSVC_FUZZ_ITERATIONS` (requests per operation, default 24) and `XSVC_FUZZ_SEED`
 * make a longer or different run.
 */
const ITERATIONS = Number(process.env.XSVC_FUZZ_ITERATIONS ?? 24);
const SEED = Number(process.env.XSVC_FUZZ_SEED ?? 20260429);
const CONTRACT = '2026-04-29';

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is walked as plain JSON
type Json = any;
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** mulberry32: a small seeded generator, so a failing request can be replayed from the seed. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T,
    chance: (p: number) => next() < p,
  };
}
type Rng = ReturnType<typeof prng>;

const HUGE = 'x'.repeat(300_000);
const LONE_SURROGATES = ['\ud800', 'a\udfffb', '\ud83d', `${'é'.repeat(10)}\udc00`];

/** Hostile strings (as JS strings: JSON.stringify escapes lone surrogates as `\udXXX`). */
const EVIL_STRINGS = [
  '',
  ' ',
  '\u0000',
  ...LONE_SURROGATES,
  HUGE,
  '🙂'.repeat(5_000),
  '%ff',
  '%',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "' or 1=1 --",
  'null',
  '-1',
  '1e999',
  'svc_',
  '@',
  'https://',
  '\u202e\u200b',
];
/** Numbers outside what any field takes (and some JSON cannot even say as numbers in JS). */
const EVIL_NUMBERS = [-1, 0, 1.5, -0.5, 2 ** 31, 2 ** 53 + 2, 2 ** 63, 2 ** 64, 1e308, -1e308, 1e-300];
/** Raw JSON number literals that JavaScript reads as Infinity or rounds. */
const EVIL_NUMBER_LITERALS = [
  '1e999',
  '-1e999',
  '123456789012345678901234567890',
  '9223372036854775808',
  '-0',
];
const WRONG_TYPES: unknown[] = [null, true, false, 0, 42, 'text', [], [1, 'a'], {}, { a: 1 }];
const DEEP = 20_000;
const MALFORMED_JSON = [
  `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`,
  `${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`,
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '{"a":1,"a":2}',
  '\ufeff{}',
  '[]',
  '"\ud800"',
  '1e999',

  '{',
  '{"a":',
  '[1,2',
  'nul',
  '{"a":1}}',
  "{'a':1}",
  '{"a":NaN}',
  '\u0000',
  '{"a":"\\ud800',
  '"',
];

/** Bodies of the wrong kind, each with the content type it claims. */
const WRONG_CONTENT: [string, string][] = [
  ['text/plain', 'hello'],
  ['application/xml', '<a>1</a>'],
  ['application/x-www-form-urlencoded', 'a=1&b=%ff'],
  ['multipart/form-data', '--x\r\n'],
  [
    'multipart/form-data; boundary=zz',
    '--zz\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--zz--\r\n',
  ],
  ['application/json; charset=utf-16', '{"a":1}'],
  ['application/octet-stream', '\u0001\u0002'],
  ['a/b/c', '{}'],
  ['', '{}'],
];

/** Path parameter values: plausible, hostile, undecodable, over-long. */
const PATH_VALUES = [
  '1',
  '0',
  '-1',
  'jack',
  '00000000-0000-7000-8000-000000000000',
  '%ff',
  '%',
  '%zz',
  '%c0%af',
  '%ED%A0%80',
  '%00',
  '..%2F..%2Fetc',
  'a'.repeat(2_000),
  '1'.repeat(10_000),
  encodeURIComponent('🙂'.repeat(50)),
  '%F0%9F%98%80',
];

/** Query values (raw, already in the query string). */
const QUERY_VALUES = [
  '',
  '%ff',
  '%',
  '-1',
  '0',
  '1.5',
  '1e999',
  '99999999999999999999',
  'true',
  'null',
  'x'.repeat(5_000),
  '%ED%A0%80',
  '[]',
  'a,b,,c',
];

/** Credential headers: mostly the owner's key (to get past authentication), then broken ones. */
function credentials(rng: Rng, key: string): Record<string, string> {
  const r = rng.int(16);
  if (r < 9) return { 'x-api-key': key };
  return rng.pick<Record<string, string>>([
    {},
    { cookie: 'session_token=%' },
    { cookie: 'session_token=%E0%A4%A; x=1' },
    { cookie: `session_token=${'a'.repeat(4_000)}` },
    { cookie: '=; ;;session_token' },
    { 'x-api-key': 'svc_%%' },
    { 'x-api-key': `svc_${'0'.repeat(64)}` },
    { 'x-api-key': `sgk_${'z'.repeat(300)}` },
    { authorization: 'Bearer ' },
    { authorization: 'Bearer %ff' },
    { authorization: `Bearer ${'A'.repeat(5_000)}` },
    { authorization: 'Basic Og==' },
    { authorization: 'Payment eyJub3QiOiJqc29uIg' },
  ]);
}

/** Extra headers now and then: contract switch, idempotency keys, forwarded headers, origins. */
function extraHeaders(rng: Rng): Record<string, string> {
  const h: Record<string, string> = {};
  if (rng.chance(0.3)) h['svc-api-contract'] = rng.pick([CONTRACT, CONTRACT, 'nope', '']);
  if (rng.chance(0.2)) h['idempotency-key'] = rng.pick(['', 'k', 'x'.repeat(1_000), '%ff', 'ключ']);
  if (rng.chance(0.1)) h['x-forwarded-for'] = rng.pick(['not-an-ip', '999.1.1.1', '::1, 1.2.3.4', '']);
  if (rng.chance(0.1)) h.origin = rng.pick(['null', 'http://evil.example', '%ff']);
  if (rng.chance(0.1)) h.accept = rng.pick(['text/csv', '*/*', 'application/json;q=0', '']);
  if (rng.chance(0.05)) h['content-encoding'] = rng.pick(['gzip', 'br', 'x']);
  return h;
}

/** A JSON Schema walker over the document: valid-looking values with hostile mutations. */
class Values {
  constructor(
    private readonly doc: Json,
    private readonly rng: Rng,
  ) {}

  resolve(s: Json): Json {
    let schema = s;
    for (let i = 0; schema?.$ref && i < 20; i++) {
      const path = (schema.$ref as string).replace(/^#\//, '').split('/');
      schema = path.reduce((o: Json, k: string) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], this.doc);
    }
    return schema ?? {};
  }

  /** A value that roughly fits `schema` (enough to reach the handler's own checks). */
  valid(s: Json, depth = 0): unknown {
    const schema = this.resolve(s);
    const { rng } = this;
    if (schema.const !== undefined) return schema.const;
    if (schema.enum) return rng.pick(schema.enum);
    const alt = schema.oneOf ?? schema.anyOf;
    if (alt) return this.valid(rng.pick(alt), depth);
    if (schema.allOf) {
      const merged: Json = { type: 'object', properties: {}, required: [] };
      for (const part of schema.allOf.map((p: Json) => this.resolve(p))) {
        Object.assign(merged.properties, part.properties);
        merged.required.push(...(part.required ?? []));
        if (part.type && part.type !== 'object') return this.valid(part, depth);
      }
      return this.valid(merged, depth);
    }
    const type = Array.isArray(schema.type) ? rng.pick(schema.type) : schema.type;
    switch (type) {
      case 'string': {
        if (schema.format === 'uri' || schema.format === 'url') return 'https://example.com/x';
        if (schema.format === 'date-time') return '2026-04-29T12:00:00Z';
        if (schema.format === 'uuid') return '00000000-0000-7000-8000-000000000000';
        if (schema.format === 'email') return 'a@example.com';
        const len = Math.max(schema.minLength ?? 1, Math.min(schema.maxLength ?? 12, 12));
        return rng.pick(['jack', 'hello world', '123', 'a'.repeat(len)]);
      }
      case 'integer':
      case 'number': {
        const min = schema.minimum ?? schema.exclusiveMinimum ?? 0;
        const max = schema.maximum ?? schema.exclusiveMaximum ?? min + 100;
        const v = min + rng.next() * Math.min(max - min, 1_000);
        return type === 'integer' ? Math.round(v) : v;
      }
      case 'boolean':
        return rng.chance(0.5);
      case 'null':
        return null;
      case 'array': {
        if (depth > 4) return [];
        const n = Math.max(schema.minItems ?? 0, rng.int(3));
        return Array.from({ length: n }, () => this.valid(schema.items ?? {}, depth + 1));
      }
      default: {
        if (depth > 4 || !schema.properties) return {};
        const out: Record<string, unknown> = {};
        for (const [k, v] of Object.entries<Json>(schema.properties)) {
          if (schema.required?.includes(k) || rng.chance(0.4)) out[k] = this.valid(v, depth + 1);
        }
        return out;
      }
    }
  }

  /** A hostile value for a field of `schema`: a wrong type, or an evil value of its own type. */
  evil(s: Json): unknown {
    const schema = this.resolve(s);
    const { rng } = this;
    if (rng.chance(0.35)) return rng.pick(WRONG_TYPES);
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    if (type === 'integer' || type === 'number') return rng.pick(EVIL_NUMBERS);
    if (type === 'array') return rng.pick([Array(2_000).fill('a'), [rng.pick(EVIL_STRINGS)], [null], [[[]]]]);
    if (type === 'object' || schema.properties) return { ['__proto__']: { x: 1 }, constructor: 'x', a: HUGE };
    return rng.pick(EVIL_STRINGS);
  }
}

interface Operation {
  method: Method;
  path: string;
  id: string;
  op: Json;
}

interface Finding {
  request: string;
  status: number;
  problem: string;
  body: string;
}

describe('fuzzing every operation of /openapi.json', () => {
  let t: TestServer;
  let doc: Json;
  let operations: Operation[];
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });

  beforeAll(async () => {
    t = await startTestServer('sqlite');
    const r = await t.request('GET', '/openapi.json');
    expect(r.status).toBe(200);
    doc = r.body;
    ajv.addSchema(doc, 'openapi');
    operations = [];
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
        const op = item[method];
        if (op) operations.push({ method: method.toUpperCase() as Method, path, id: op.operationId, op });
      }
    }
  }, 60_000);
  afterAll(async () => t?.close());

  /** The declared schema of an answer (the status, else `default`), as an ajv validator. */
  const validators = new Map<string, ReturnType<typeof ajv.compile> | null>();
  function declared(o: Operation, status: number): ReturnType<typeof ajv.compile> | null {
    const key = `${o.method} ${o.path} ${status}`;
    if (validators.has(key)) return validators.get(key) ?? null;
    const responses = o.op.responses ?? {};
    const code = responses[String(status)] ? String(status) : responses.default ? 'default' : undefined;
    let v: ReturnType<typeof ajv.compile> | null = null;
    if (code) {
      const escaped = o.path.replace(/~/g, '~0').replace(/\//g, '~1');
      let base = `openapi#/paths/${escaped}/${o.method.toLowerCase()}/responses/${code}`;
      let response = responses[code];
      if (response.$ref) {
        base = `openapi${response.$ref}`;
        response = new Values(doc, prng(0)).resolve(response);
      }
      if (response.content?.['application/json']?.schema) {
        v = ajv.compile({ $ref: `${base}/content/application~1json/schema` });
      }
    }
    validators.set(key, v);
    return v;
  }

  /** One request built from the operation by the generator, with its description for a finding. */
  function build(o: Operation, rng: Rng) {
    const values = new Values(doc, rng);
    const params: Json[] = (o.op.parameters ?? []).map((p: Json) => values.resolve(p));
    const mode = rng.pick([
      'path',
      'query',
      'body',
      'body',
      'malformed',
      'content-type',
      'headers',
      'valid',
    ] as const);
    // Path parameters: plausible mostly; the `path` mode makes them hostile.
    const path = o.path.replace(/\{([^}]+)\}/g, () =>
      mode === 'path' || rng.chance(0.1)
        ? rng.pick(PATH_VALUES)
        : rng.pick(['1', 'jack', '00000000-0000-7000-8000-000000000000']),
    );
    const query: string[] = [];
    for (const p of params.filter((x) => x.in === 'query')) {
      if (mode === 'query' && rng.chance(0.7)) {
        query.push(`${p.name}=${rng.pick(QUERY_VALUES)}`);
        if (rng.chance(0.2)) query.push(`${p.name}=${rng.pick(QUERY_VALUES)}`); // repeated
      } else if (p.required || rng.chance(0.3)) {
        query.push(`${p.name}=${encodeURIComponent(String(values.valid(p.schema ?? {})))}`);
      }
    }
    if (mode === 'query' && rng.chance(0.3))
      query.push(rng.pick(['%', '=%ff', '&&&', 'a[b]=1', '__proto__=1']));
    const url = query.length ? `${path}?${query.join('&')}` : path;

    const headers: Record<string, string> = { ...credentials(rng, t.key), ...extraHeaders(rng) };
    if (mode === 'headers') {
      Object.assign(
        headers,
        rng.pick<Record<string, string>>([
          { cookie: 'session_token=%; session_token=%' },
          { 'content-length': '5' },
          { 'x-request-id': 'x'.repeat(3_000) },
          { 'svc-api-contract': CONTRACT, 'x-api-key': 'svc_%' },
          { host: '%ff' },
          { 'x-forwarded-proto': 'gopher' },
        ]),
      );
      if (headers['content-length']) delete headers['content-length']; // inject computes it
    }
    const content = o.op.requestBody?.content ?? {};
    const schema = content['application/json']?.schema;
    let payload: string | undefined;
    if (mode === 'malformed') {
      payload = rng.pick(MALFORMED_JSON);
      headers['content-type'] = 'application/json';
    } else if (mode === 'content-type') {
      const [type, body] = rng.pick(WRONG_CONTENT);
      payload = body;
      if (type) headers['content-type'] = type;
    } else if (schema || mode === 'body') {
      let body = schema ? values.valid(schema) : rng.pick(WRONG_TYPES);
      if (mode === 'body') {
        const resolved = values.resolve(schema ?? {});
        const props = Object.entries<Json>(resolved.properties ?? {});
        if (body && typeof body === 'object' && !Array.isArray(body) && props.length && rng.chance(0.85)) {
          const n = 1 + rng.int(Math.min(3, props.length));
          for (let i = 0; i < n; i++) {
            const [k, v] = rng.pick(props);
            const bad = values.evil(v);
            // Now and then one level down: an item of a list, a field of an object.
            (body as Record<string, unknown>)[k] = rng.chance(0.2) ? rng.pick([[bad], { [k]: bad }]) : bad;
          }
        } else body = rng.pick(WRONG_TYPES);
      }
      payload = JSON.stringify(body);
      if (mode === 'body' && rng.chance(0.25)) {
        // Numbers JavaScript cannot hold, written as JSON literals.
        const lit = rng.pick(EVIL_NUMBER_LITERALS);
        payload = payload.replace(/:(-?\d+(\.\d+)?)/, `:${lit}`);
      }
      headers['content-type'] = 'application/json';
    }
    return { method: o.method, url, headers, payload, mode };
  }

  it(`answers ${ITERATIONS} generated requests per operation below 500, every error in the declared shape`, async () => {
    const rng = prng(SEED);
    const findings: Finding[] = [];
    let sent = 0;
    const statuses = new Map<string, number>();
    /** Operations that answered anything at all (every one must). */
    const reached = new Set<string>();
    expect(operations.length).toBeGreaterThan(100);
    for (const o of operations) {
      for (let i = 0; i < ITERATIONS; i++) {
        const req = build(o, rng);
        const res = await t.server.app.inject({
          method: req.method,
          url: req.url,
          headers: req.headers,
          ...(req.payload !== undefined && { payload: req.payload }),
        });
        sent++;
        const bucket = `${Math.floor(res.statusCode / 100)}xx`;
        statuses.set(bucket, (statuses.get(bucket) ?? 0) + 1);
        reached.add(o.id);
        const describeReq = () =>
          `${o.id} [${req.mode}] ${req.method} ${req.url.slice(0, 160)} ${JSON.stringify(req.headers).slice(0, 200)} ${(req.payload ?? '').slice(0, 160)}`;
        const note = (problem: string) =>
          findings.push({
            request: describeReq(),
            status: res.statusCode,
            problem,
            body: res.body.slice(0, 300),
          });
        if (res.statusCode >= 500) {
          note('5xx');
          continue;
        }
        if (res.statusCode < 400) continue;
        const type = String(res.headers['content-type'] ?? '');
        if (!type.includes('json')) {
          note(`error answered as ${type || 'no content type'}`);
          continue;
        }
        let body: Json;
        try {
          body = JSON.parse(res.body);
        } catch {
          note('error body is not JSON');
          continue;
        }
        const validate = declared(o, res.statusCode);
        if (!validate) {
          note('status not declared by /openapi.json');
          continue;
        }
        const structured = req.headers['svc-api-contract'] === CONTRACT;
        if (!structured && !validate(body)) {
          note(`body does not match the declared schema: ${ajv.errorsText(validate.errors)}`);
          continue;
        }
        // The API's own errors (not OAuth's RFC 6749 body, not /ask's envelope) carry a message.
        const isApi = o.path.startsWith('/api/v1/');
        if (isApi && (typeof body.error !== 'string' || typeof body.message !== 'string')) {
          if (!(structured && typeof body.error === 'object' && typeof body.error?.message === 'string'))
            note('API error without { error, message }');
        }
      }
    }
    // One line per kind of finding (operation, status, problem, error code), with its first request.
    const kinds = new Map<string, { count: number; first: Finding }>();
    for (const f of findings) {
      const code = /"error":"([^"]*)"/.exec(f.body)?.[1] ?? '';
      const key = `${f.request.split(' ')[0]} ${f.status} ${f.problem} ${code}`;
      const kind = kinds.get(key);
      if (kind) kind.count++;
      else kinds.set(key, { count: 1, first: f });
    }
    const summary = [...kinds]
      .map(([key, k]) => `${k.count} × ${key}\n    ${k.first.request}\n    -> ${k.first.body}`)
      .join('\n');
    if (process.env.XSVC_FUZZ_VERBOSE) console.log(sent, Object.fromEntries(statuses));
    expect(
      findings.length,
      `${findings.length} findings in ${sent} requests (seed ${SEED}):\n${summary}`,
    ).toBe(0);
    expect(reached.size).toBe(operations.length);
    // The generator gets past authentication and validation often enough to reach the handlers (long runs
    // see more 429s once the rate limits fill up).
    expect(statuses.get('2xx') ?? 0).toBeGreaterThan(sent * 0.01);
  }, 600_000);

  it('answers the consent form target in JSON to clients that ask for it, in HTML to browsers', async () => {
    // Not an operation of /openapi.json (the consent page posts it), so the loop above never reaches it.
    const rng = prng(SEED + 1);
    const values = new Values(doc, rng);
    const jsonAccepts = ['application/json', 'application/json, text/plain, */*', 'application/problem+json'];
    const browserAccept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    const findings: string[] = [];
    for (let i = 0; i < ITERATIONS * 8; i++) {
      const json = rng.chance(0.6);
      const headers: Record<string, string> = {
        accept: json ? rng.pick(jsonAccepts) : browserAccept,
        ...rng.pick<Record<string, string>>([
          {},
          { cookie: 'session_token=%' },
          { cookie: `session_token=${'a'.repeat(64)}` },
          { 'x-api-key': t.key },
        ]),
      };
      const fields = {
        request_id: rng.chance(0.7) ? values.evil({ type: 'string' }) : rng.pick(WRONG_TYPES),
        decision: rng.pick<unknown>(['approve', 'deny', 'maybe', values.evil({ type: 'string' })]),
      };
      let payload: string;
      let wellFormed = true;
      const kind = rng.pick(['form', 'json', 'malformed', 'wrong'] as const);
      if (kind === 'form') {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        payload = new URLSearchParams(
          Object.entries(fields).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
        ).toString();
      } else if (kind === 'json') {
        headers['content-type'] = 'application/json';
        payload = JSON.stringify(rng.chance(0.8) ? fields : rng.pick(WRONG_TYPES));
      } else if (kind === 'malformed') {
        headers['content-type'] = 'application/json';
        payload = rng.pick(MALFORMED_JSON);
        wellFormed = false;
      } else {
        const [type, body] = rng.pick(WRONG_CONTENT);
        if (type) headers['content-type'] = type;
        payload = body;
        wellFormed = false;
      }
      const res = await t.server.app.inject({
        method: 'POST',
        url: '/api/oauth/authorize/decision',
        headers,
        payload,
      });
      const type = String(res.headers['content-type'] ?? '');
      const say = (problem: string) =>
        findings.push(
          `${problem}: ${res.statusCode} ${type} ${JSON.stringify(headers).slice(0, 160)} ${payload.slice(0, 120)} -> ${res.body.slice(0, 160)}`,
        );
      if (res.statusCode >= 500) say('5xx');
      else if (res.statusCode < 400) say('not refused');
      else if (json) {
        if (!type.includes('application/json')) say('JSON client answered with a page');
        else {
          const body = JSON.parse(res.body) as Json;
          if (typeof body.error !== 'string' || typeof body.message !== 'string')
            say('JSON error without { error, message }');
        }
      } else if (wellFormed && kind === 'form' && !type.includes('text/html')) say('browser got no page');
    }
    expect(findings.length, findings.slice(0, 10).join('\n')).toBe(0);
  });
});
