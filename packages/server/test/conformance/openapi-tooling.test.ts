/**
 * The OpenAPI description as tools nobody here wrote read it: `openapi-typescript` generates the types,
 * `openapi-fetch` makes typed calls with them against a listening server (the calls type-check against the
 * generated types first), Ajv validates every answer against the served `/openapi.json`, js-yaml reads the
 * YAML copy as the same document under YAML 1.2 and YAML 1.1 (what PyYAML speaks), and `@redocly/cli lint`
 * with its recommended rules finds nothing.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { load, YAML11_SCHEMA } from 'js-yaml';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Listening, listen } from './listening.js';

/** An answer recorded by the typed calls (`typed-client/calls.ts`). */
interface Exchange {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly contentType: string | null;
  readonly body: unknown;
}

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const HERE = dirname(fileURLToPath(import.meta.url));
const PACKAGE = join(HERE, '..', '..');
/** Where the generated types and the copy of the calls are type-checked (inside node_modules: never committed). */
const WORK = join(PACKAGE, 'node_modules', '.cache', 'xsvc-openapi-conformance');

// biome-ignore lint/suspicious/noExplicitAny: the served document, walked by JSON pointer
type Doc = Record<string, any>;

let at: Listening;
let doc: Doc;

beforeAll(async () => {
  at = await listen(`svc_${'0a'.repeat(32)}`);
  const r = await fetch(`${at.base}/openapi.json`);
  expect(r.status).toBe(200);
  doc = (await r.json()) as Doc;
});
afterAll(async () => at?.close());

/** The binary of a dev dependency, run by this Node. */
function bin(pkg: string, path: string): string {
  return join(dirname(require.resolve(`${pkg}/package.json`)), path);
}

/** JSON pointer escaping (RFC 6901). */
const pointer = (...parts: string[]) =>
  parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

describe('OpenAPI tooling', () => {
  it('serves a YAML copy that js-yaml reads as the JSON document, under YAML 1.2 and YAML 1.1', async () => {
    const r = await fetch(`${at.base}/openapi.yaml`);
    expect(r.headers.get('content-type')).toMatch(/^application\/yaml/);
    const text = await r.text();
    expect(load(text)).toEqual(doc);
    // YAML 1.1 (PyYAML) reads an unquoted 2026-04-29 as a date and `yes` as a boolean.
    expect(load(text, { schema: YAML11_SCHEMA })).toEqual(doc);
    expect(text).toMatch(/- "2026-04-29"/);
  });

  it('passes @redocly/cli lint with the recommended rules: no error, no warning', async () => {
    mkdirSync(WORK, { recursive: true });
    const file = join(WORK, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const lint = await run(
      process.execPath,
      [bin('@redocly/cli', 'bin/cli.js'), 'lint', file, '--extends=recommended', '--format=json'],
      { cwd: WORK, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, REDOCLY_TELEMETRY: 'off' } },
    ).catch((e: { stdout?: string; stderr?: string }) => e);
    const report = JSON.parse(lint.stdout ?? '{}') as {
      totals?: { errors: number; warnings: number };
      problems?: { ruleId: string; message: string }[];
    };
    expect(report.problems?.slice(0, 5) ?? lint.stderr).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 30_000);

  it('generates types with openapi-typescript that type the calls, and every answer matches the document', async () => {
    mkdirSync(WORK, { recursive: true });
    writeFileSync(join(WORK, 'openapi.d.ts'), astToString(await openapiTS(structuredClone(doc) as OpenAPI3)));
    copyFileSync(join(HERE, 'typed-client', 'calls.ts'), join(WORK, 'calls.ts'));
    writeFileSync(
      join(WORK, 'tsconfig.json'),
      JSON.stringify({
        extends: join(PACKAGE, '..', '..', 'tsconfig.base.json'),
        compilerOptions: { types: [], noEmit: true },
        files: ['calls.ts'],
      }),
    );
    const typecheck = run(process.execPath, [bin('typescript', 'bin/tsc'), '-p', WORK]).catch(
      (e: { stdout?: string }) => ({ stdout: `tsc failed:\n${e.stdout}` }),
    );

    // Imported by a computed path: the package's typecheck must not follow it to the types generated here.
    const calls = join(HERE, 'typed-client', 'calls.ts');
    const { typedCalls } = (await import(/* @vite-ignore */ calls)) as {
      typedCalls(base: string, key: string): Promise<Exchange[]>;
    };
    const exchanges = await typedCalls(at.base, at.key);
    expect((await typecheck).stdout).toBe('');

    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    // ajv-formats is CommonJS: NodeNext types its plugin as the `default` of the module object.
    formats.default(ajv);
    ajv.addSchema(doc, 'openapi.json');
    const statuses = new Set<number>();
    for (const x of exchanges) {
      const label = `${x.method.toUpperCase()} ${x.path} → ${x.status}`;
      const responses = doc.paths[x.path]?.[x.method]?.responses;
      expect(responses, label).toBeDefined();
      const key = String(x.status) in responses ? String(x.status) : 'default';
      expect(key, `${label} is not declared`).not.toBe('default');
      statuses.add(x.status);
      const media = (x.contentType ?? '').split(';')[0]!;
      const content = responses[key].content;
      if (!content) {
        expect(x.body, label).toBeUndefined();
        continue;
      }
      expect(Object.keys(content), label).toContain(media);
      const validate = ajv.getSchema(
        `openapi.json#/${pointer('paths', x.path, x.method, 'responses', key, 'content', media, 'schema')}`,
      )!;
      expect(validate(x.body) ? [] : validate.errors?.slice(0, 3), label).toEqual([]);
    }
    // Successes, validation failures, missing resources and an anonymous paid read (402: pay per call)
    // were all exercised.
    expect([...statuses].sort()).toEqual(expect.arrayContaining([200, 201, 204, 400, 402, 404]));
    expect(exchanges.length).toBeGreaterThan(25);
  }, 30_000);
});
