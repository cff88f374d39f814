/**
 * Types of each operation's parameters and answers, derived from the contract's zod schemas at compile time
 * only (`import type`), so the client carries no schema code at runtime.
 */
import type { z } from 'zod';
import type { operationsById } from '../contract/lookup.js';

type Ops = typeof operationsById;

/** Every operation id. */
export type OperationId = keyof Ops;

/** Keys and optionality as callers write them (input), value types as the service reads them (output). */
type Fields<S> = S extends z.ZodType
  ? { [K in keyof z.input<S>]: K extends keyof z.output<S> ? z.output<S>[K] : z.input<S>[K] }
  : // biome-ignore lint/complexity/noBannedTypes: an operation without parameters takes an empty object
    {};

type BodyFields<S> = S extends z.ZodType
  ? z.input<S>
  : // biome-ignore lint/complexity/noBannedTypes: an operation without a body adds no fields
    {};

/** The query and body fields of an operation, as one object. */
export type Params<K extends OperationId> = Fields<Ops[K]['query']> & BodyFields<Ops[K]['body']>;

/** The answer of an operation (default contract; the opt-in contract is normalized to it). */
export type Output<K extends OperationId> = z.output<Ops[K]['response']>;

/** The item type of a paginated operation. */
export type Item<K extends OperationId> = Ops[K] extends { readonly items: infer I extends string }
  ? Output<K> extends Record<I, ReadonlyArray<infer T>>
    ? T
    : unknown
  : unknown;
