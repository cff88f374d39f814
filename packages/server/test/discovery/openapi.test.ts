import { Validator } from '@seriousme/openapi-schema-validator';
import { type AnyOperation, operations } from '@xsvc/sdk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** The document as the harness parses JSON: untyped, walked by the assertions. */
type Doc = Awaited<ReturnType<TestServer['request']>>['body'];

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

describe('/openapi.json and /openapi.yaml', () => {
  let t: TestServer;
  let doc: Doc;
  beforeAll(async () => {
    t = await startTestServer('sqlite');
    const r = await t.request('GET', '/openapi.json', { key: null });
    expect(r.status).toBe(200);
    doc = r.body;
  });
  afterAll(async () => t?.close());

  const allOperations = () =>
    Object.entries(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap(
      ([path, item]) =>
        Object.entries(item)
          .filter(([m]) => METHODS.includes(m))
          .map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
    );

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    const result = await new Validator().validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('describes every operation of the contract, none excluded', () => {
    const listed = allOperations();
    expect(listed).toHaveLength(operations.length);
    for (const op of operations as readonly AnyOperation[]) {
      const found = doc.paths[op.path]?.[op.method.toLowerCase()];
      expect(found?.operationId, op.id).toBe(op.id);
      expect(found.tags).toEqual([op.tag]);
      expect(found.summary).toBe(op.summary);
      expect(typeof found.description).toBe('string');
      expect(Object.keys(found.responses)).toContain(String(op.success[0]));
    }
  });

  it('derives parameters, bodies, answers, errors and security from the contract', () => {
    const search = doc.paths['/api/v1/x/tweets/search']!.get!;
    const q = search.parameters.find((p: { name: string }) => p.name === 'q');
    expect(q).toMatchObject({ in: 'query', required: true, schema: { type: 'string' } });
    expect(search.responses['200'].content['application/json'].schema.$ref).toMatch(
      /^#\/components\/schemas\//,
    );
    const tweet = doc.paths['/api/v1/x/tweets/{id}']!.get!;
    expect(tweet.parameters.find((p: { name: string }) => p.name === 'id')).toMatchObject({
      in: 'path',
      required: true,
    });
    expect(
      tweet.responses['404'].content['application/json'].schema.allOf[1].properties.error.enum,
    ).toContain('tweet_not_found');
    expect(tweet.responses['401']).toBeDefined();
    expect(tweet.security).toEqual(
      expect.arrayContaining([{ ApiKey: [] }, { Bearer: [] }, { SessionCookie: [] }]),
    );

    const create = doc.paths['/api/v1/x/tweets']!.post!;
    expect(create.requestBody.content['application/json'].schema.properties).toHaveProperty('text');
    expect(create.parameters.find((p: { name: string }) => p.name === 'Idempotency-Key')).toMatchObject({
      in: 'header',
      required: true,
    });
    expect(doc.paths['/api/v1/x/media']!.post!.requestBody.content).toHaveProperty(['multipart/form-data']);

    expect(doc.paths['/health']!.get!.security).toEqual([]);
    expect(doc.components.securitySchemes).toMatchObject({
      ApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
      Bearer: { type: 'http', scheme: 'bearer' },
      SessionCookie: { type: 'apiKey', in: 'cookie', name: 'session_token' },
    });
    expect(doc.components.schemas!.Error!.properties.error.enum).toContain('rate_limit_exceeded');
    expect(doc.servers).toEqual([{ url: t.server.services.publicUrl() }]);
  });

  it('marks the deprecated parameters and fields of spec 9.5', () => {
    const followers = doc.paths['/api/v1/x/users/{id}/followers']!.get!;
    expect(followers.parameters.find((p: { name: string }) => p.name === 'after')).toMatchObject({
      deprecated: true,
    });
    expect(
      followers.parameters.find((p: { name: string }) => p.name === 'cursor').deprecated,
    ).toBeUndefined();
    const extraction = doc.paths['/api/v1/extractions/{id}']!.get!;
    expect(extraction.parameters.find((p: { name: string }) => p.name === 'includeRaw')).toMatchObject({
      deprecated: true,
    });
    const account = doc.paths['/api/v1/account']!.get!;
    const ref: string = account.responses['200'].content['application/json'].schema.$ref;
    const schema = doc.components.schemas![ref.split('/').pop()!];
    expect(schema.properties.monitorsAllowed.deprecated).toBe(true);
    expect(account.responses['200'].headers).toHaveProperty('Deprecation');
  });

  it('gives every operation a unique operationId, webhooks included', () => {
    const ids = [
      ...allOperations().map((o) => o.op.operationId),
      ...Object.values(doc.webhooks as Record<string, { post: { operationId: string } }>).map(
        (w) => w.post.operationId,
      ),
    ];
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('describes the webhook deliveries', () => {
    const event = doc.webhooks.monitorEvent!.post!;
    expect(event.parameters.map((p: { name: string }) => p.name)).toEqual([
      'X-Svc-Timestamp',
      'X-Svc-Nonce',
      'X-Svc-Signature',
    ]);
    const ref: string = event.requestBody.content['application/json'].schema.$ref;
    const payload = doc.components.schemas![ref.split('/').pop()!];
    expect(payload.required).toEqual(
      expect.arrayContaining([
        'eventType',
        'schemaVersion',
        'deliveryId',
        'streamEventId',
        'occurredAt',
        'data',
      ]),
    );
  });

  it('keeps every $ref resolvable', () => {
    const text = JSON.stringify(doc);
    const missing = [...text.matchAll(/"\$ref":"#\/components\/(\w+)\/([^"]+)"/g)].filter(
      ([, kind, name]) => !doc.components[kind!]?.[name!],
    );
    expect(missing.map((m) => m[0])).toEqual([]);
  });

  it('is the committed document: a change of the contract shows here in review', async () => {
    // All of it but the package version, readable in `__snapshots__/openapi.json` (`-u` updates it).
    const { version: _, ...info } = doc.info;
    await expect(`${JSON.stringify({ ...doc, info }, null, 2)}\n`).toMatchFileSnapshot(
      './__snapshots__/openapi.json',
    );
  });

  it('serves the same document as YAML', async () => {
    const r = await t.request('GET', '/openapi.yaml', { key: null });
    expect(r.status).toBe(200);
    expect(String(r.headers['content-type'])).toContain('application/yaml');
    expect(parse(r.body)).toEqual(doc);
  });
});
