import type { AnyOperation } from './operation.js';
import { type DefinedOperations, operations } from './operations/index.js';

type Ops = DefinedOperations;

/** Every operation by its id (`operationsById.lookupTweet`). */
export const operationsById = Object.fromEntries(operations.map((o) => [o.id, o])) as {
  readonly [K in Ops[number]['id']]: Extract<Ops[number], { id: K }>;
};

/** The operation for a method and path template (`findOperation('GET', '/api/v1/x/tweets/{id}')`). */
export function findOperation(method: string, path: string): AnyOperation | undefined {
  const m = method.toUpperCase();
  return operations.find((o) => o.method === m && o.path === path);
}
