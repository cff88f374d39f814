import type { AnyOperation, operationsById } from '@xsvc/sdk/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Principal } from '../auth/authenticate.js';
import type { Services } from '../services.js';

type Ops = typeof operationsById;
/** Every operation id of the contract. */
export type OperationId = keyof Ops;

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler receives: validated parameters, the caller, the services. */
export interface HandlerContext<K extends OperationId = OperationId> {
  readonly op: AnyOperation;
  readonly params: Out<Ops[K]['params']>;
  readonly query: Out<Ops[K]['query']>;
  readonly body: Out<Ops[K]['body']>;
  /** The authenticated caller; undefined only for operations that allow anonymous calls. */
  readonly principal: Principal | undefined;
  readonly services: Services;
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly requestId: string;
  /** True when the caller asked for the opt-in contract. */
  readonly optIn: boolean;
  /** The caller, or 401 when the request carries no credential. */
  requirePrincipal(): Principal;
}

/** A full answer, when the status or headers differ from the operation's usual ones. */
export class Answer {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** The answer of an operation: its default-contract body (validated against the contract in tests), or an {@link Answer}. */
export type HandlerResult<K extends OperationId> =
  | (Ops[K]['response'] extends z.ZodType ? z.input<Ops[K]['response']> : unknown)
  | Answer;

/** The implementation of one operation. */
export type Handler<K extends OperationId = OperationId> = (
  ctx: HandlerContext<K>,
) => Promise<HandlerResult<K>>;

/** Implementations by operation id; a feature exports one of these. */
export type HandlerMap = { [K in OperationId]?: Handler<K> };

/** Checks a feature's handler map against the contract's types. */
export function defineHandlers<M extends HandlerMap>(handlers: M): M {
  return handlers;
}
