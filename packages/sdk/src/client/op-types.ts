/**
 * Types of each operation's parameters and answers, by operation id, from the interfaces generated from the
 * contract (`types.generated.ts`): plain types, so the client carries no schema code and apps type-check fast.
 */
import type { Operations } from './types.generated.js';

/** Every operation id. */
export type OperationId = keyof Operations;

/** The parameters of an operation (query and body fields, as one object). */
export type Params<K extends OperationId> = Operations[K][0];

/** The answer of an operation (default contract; the opt-in contract is normalized to it). */
export type Output<K extends OperationId> = Operations[K][1];

/** The item type of a paginated operation. */
export type Item<K extends OperationId> = Operations[K][2];
