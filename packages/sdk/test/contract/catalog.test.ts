import { describe, expect, it } from 'vitest';
import { operations } from '../../src/contract/operations/index.js';
import { strictify } from '../../src/contract/zod-helpers.js';
import { exampleFor } from '../../src/testing/examples.js';
import { REFERENCE, SPEC_EXTRAS } from './reference-operations.js';

describe('the contract', () => {
  it('holds all 127 operations of the reference, at their method and path', () => {
    expect(REFERENCE).toHaveLength(127);
    for (const [id, method, path] of REFERENCE) {
      const op = operations.find((o) => o.id === id);
      expect(op, id).toBeDefined();
      expect(`${op!.method} ${op!.path}`, id).toBe(`${method} ${path}`);
    }
  });

  it('holds the operations the spec adds, and the public endpoints', () => {
    for (const id of SPEC_EXTRAS)
      expect(
        operations.some((o) => o.id === id),
        id,
      ).toBe(true);
    for (const path of ['/ask', '/openapi.json', '/.well-known/api-catalog', '/api/oauth/token']) {
      expect(
        operations.some((o) => o.path === path),
        path,
      ).toBe(true);
    }
  });

  it('has unique ids, unique method+path, and unique SDK paths', () => {
    const uniq = (xs: string[]) => expect(new Set(xs).size).toBe(xs.length);
    uniq(operations.map((o) => o.id));
    uniq(operations.map((o) => `${o.method} ${o.path}`));
    uniq(operations.map((o) => o.sdk.join('.')));
  });

  it.each(operations.map((o) => [o.id, o] as const))('%s is well-formed', (_id, op) => {
    const placeholders = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    expect(Object.keys(op.params?.shape ?? {}).sort()).toEqual([...placeholders].sort());
    expect(op.summary.length).toBeGreaterThan(5);
    expect(op.success.length).toBeGreaterThan(0);
    if (op.pagination) {
      expect(op.items, 'paginated operations name their items').toBeTruthy();
      expect(op.method).toBe('GET');
    }
    if (op.writeAction) {
      expect(op.success).toEqual(expect.arrayContaining([200, 202]));
    }
    if (op.method === 'GET') expect(op.body).toBeNull();
  });

  it.each(operations.map((o) => [o.id, o] as const))(
    '%s: the generated mock answer satisfies the strict schema',
    (_id, op) => {
      const example = exampleFor(op.response);
      const r = strictify(op.response).safeParse(example);
      expect(r.success ? [] : r.error.issues).toEqual([]);
      if (op.pagination && op.items)
        expect(Array.isArray((example as Record<string, unknown>)[op.items])).toBe(true);
    },
  );
});
