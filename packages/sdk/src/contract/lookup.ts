import type { z } from 'zod';
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

/** Every operation id of the contract. */
export type ContractOperationId = keyof typeof operationsById;

type Parsed<S> = S extends z.ZodType ? z.output<S> : never;

/**
 * The query of an operation as the server reads it once validated (`z.output` of its query schema): a field
 * renamed or removed in the contract is a type error wherever the server reads it.
 */
export type QueryOf<K extends ContractOperationId> = Parsed<(typeof operationsById)[K]['query']>;

/** The body of an operation once validated (`z.output` of its body schema). */
export type BodyOf<K extends ContractOperationId> = Parsed<(typeof operationsById)[K]['body']>;

/** The path parameters of an operation once validated. */
export type PathParamsOf<K extends ContractOperationId> = Parsed<(typeof operationsById)[K]['params']>;
