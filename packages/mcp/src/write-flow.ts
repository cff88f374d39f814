import type { CallToolResult } from '@modelcontextprotocol/server';
import {
  type RequestOptions,
  TimeoutError,
  WriteAction,
  type WriteActionData,
  WriteActionFailedError,
} from '@xsvc/sdk';
import type { CallParams } from '@xsvc/sdk/transport';
import type { Action } from './actions.js';
import type { CallContext } from './call-context.js';
import { describeFailure, failureResult } from './errors.js';
import { success } from './result.js';

/**
 * A durable platform write (spec 4.13): sent once with an idempotency key (the caller's, or one the SDK
 * generates and keeps across its retries), then waited for with `WriteAction.wait` up to `writeWaitMs`.
 * A terminal success answers the action; a failure is a tool error saying whether a retry is safe; an
 * action still active is answered as pending with its id, and is never sent again from here.
 */
export async function runDurableWrite(
  action: Action,
  params: CallParams,
  options: RequestOptions,
  ctx: CallContext,
): Promise<CallToolResult> {
  const res = await ctx.transport.call<WriteActionData>(action.route, params, options);
  const handle = new WriteAction(ctx.transport, res.data, res.headers);
  try {
    const done = await handle.wait({
      timeoutMs: ctx.writeWaitMs,
      ...(ctx.signal && { signal: ctx.signal }),
    });
    return success({ action: action.name, data: done, status: done.status, write_action_id: done.id });
  } catch (err) {
    if (err instanceof WriteActionFailedError) {
      return failureResult(action.name, describeFailure(err, ctx.transport.baseUrl));
    }
    // Still active (the wait ran out or a poll failed): the write stands; report where it is.
    const polled =
      err instanceof TimeoutError
        ? ''
        : ` (last poll failed: ${err instanceof Error ? err.message : String(err)})`;
    return success({
      action: action.name,
      data: handle.data,
      status: handle.status,
      write_action_id: handle.id,
      next_step: `Not final yet${polled}: check it later with write_actions {"action":"get","params":{"id":"${handle.id}"}}. Do not send it again.`,
    });
  }
}
