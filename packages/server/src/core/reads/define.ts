import type { operationsById } from '@xsvc/sdk/contract';
import type { z } from 'zod';
import type { Answer, HandlerContext, HandlerMap, OperationId } from '../http/handler.js';
import { withPlatformErrors } from '../http/platform-errors.js';

type Ops = typeof operationsById;

/**
 * The body a read answers, typed as the contract's parsed (output) shape: the platform's objects are
 * `z.infer` types, whose open enums (`media[].type`, ...) are wider than the request-side input types
 * `defineHandlers` checks against. The strict response validation of the test server still checks every
 * value against the listed ones.
 */
type ReadResult<K extends OperationId> = z.output<Ops[K]['response']> | Answer;

/** The implementation of one read operation. */
type ReadHandler<K extends OperationId> = (ctx: HandlerContext<K>) => Promise<ReadResult<K>>;

/** Read implementations by operation id. */
type ReadHandlerMap = { [K in OperationId]?: ReadHandler<K> };

/**
 * Checks a map of read handlers against the contract and wraps each so that platform failures become
 * their HTTP answers (see `toHttpError`).
 */
export function defineReadHandlers<M extends ReadHandlerMap>(
  handlers: M,
): { [K in keyof M]: NonNullable<HandlerMap[K & OperationId]> } {
  return withPlatformErrors(handlers as unknown as HandlerMap) as unknown as {
    [K in keyof M]: NonNullable<HandlerMap[K & OperationId]>;
  };
}
