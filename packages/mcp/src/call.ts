import type { CallToolResult } from '@modelcontextprotocol/server';
import { Page, type RequestOptions } from '@xsvc/sdk';
import type { CallParams } from '@xsvc/sdk/transport';
import type { Action } from './actions.js';
import type { CallContext } from './call-context.js';
import { describeFailure, failureResult } from './errors.js';
import type { ToolArgs } from './input-schema.js';
import { success } from './result.js';
import { runDurableWrite } from './write-flow.js';

/** Pagination fields of both styles, replaced by `next_cursor` in what a tool answers. */
const PAGE_FIELDS = ['hasMore', 'nextCursor', 'has_next_page', 'next_cursor'];

/**
 * Runs one action through the SDK's transport (its retries, deadline and typed errors) and answers a tool
 * result; every failure becomes a tool error, never an exception out of the server.
 */
export async function runAction(action: Action, args: ToolArgs, ctx: CallContext): Promise<CallToolResult> {
  const options: RequestOptions = {
    timeoutMs: ctx.callTimeoutMs,
    ...(ctx.signal && { signal: ctx.signal }),
    ...(args.idempotency_key !== undefined && { idempotencyKey: args.idempotency_key }),
  };
  const { cursor, ...rest } = args.params;
  const params: CallParams = { ...rest };
  const at = typeof cursor === 'string' ? cursor : undefined;
  if (action.cursorKey && at !== undefined) params[action.cursorKey] = at;
  try {
    if (action.op.writeAction) return await runDurableWrite(action, params, options, ctx);
    const res = await ctx.transport.call<unknown>(action.route, params, options);
    if (!action.route.pagination) return success({ action: action.name, data: res.data ?? null });
    const page = new Page(ctx.transport, action.route, params, options, res.data, at);
    return success({
      action: action.name,
      data: withoutPageFields(res.data),
      ...(page.nextCursor !== undefined && { next_cursor: page.nextCursor }),
    });
  } catch (err) {
    return failureResult(action.name, describeFailure(err, ctx.transport.baseUrl));
  }
}

function withoutPageFields(data: unknown): unknown {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return data ?? null;
  const out: Record<string, unknown> = { ...(data as Record<string, unknown>) };
  for (const k of PAGE_FIELDS) delete out[k];
  return out;
}
