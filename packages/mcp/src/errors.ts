import type { CallToolResult } from '@modelcontextprotocol/server';
import {
  AbortError,
  ApiError,
  ConnectionError,
  TimeoutError,
  WriteActionFailedError,
  XsvcError,
} from '@xsvc/sdk';
import { errorInfo } from '@xsvc/sdk/contract';
import type { z } from 'zod';
import type { ToolFailureOutput } from './output-schema.js';

/** A failure as a tool reports it: the spec's code, what it means, and what to do next. */
export type ToolFailure = Readonly<z.output<typeof ToolFailureOutput>>;

/** Next steps for codes whose family's default would mislead. */
const BY_CODE: Readonly<Record<string, string>> = {
  no_cached_style:
    'Nothing was charged. Analyze the style first (compose_write styles_analyze), then call again.',
  x_auth_failure:
    'The connected account lost its session: the user must log it in again (dashboard or CLI). Do not retry before.',
  account_needs_reauth:
    'The connected account must log in again (dashboard or CLI) before it can do this. Do not retry before.',
  idempotency_conflict: 'This idempotency_key was used for a different request: use a new key.',
  idempotency_key_conflict: 'This idempotency_key was used for a different request: use a new key.',
  monitor_already_exists: 'A monitor for this already exists: list the monitors and update it instead.',
  coverage_cursor_gone: 'The cursor expired: start again without cursor.',
  x_daily_limit: "The connected account reached the platform's daily limit: try again tomorrow.",
  x_write_ambiguous:
    'The write may have happened: check it (write_actions get, or read the target) before sending it again.',
  write_tracking_unavailable: 'Write tracking is down: check the target before sending the write again.',
};

/** Describes any error thrown while serving a call; never throws. */
export function describeFailure(err: unknown, baseUrl: string): ToolFailure {
  if (err instanceof ApiError) return apiFailure(err);
  if (err instanceof WriteActionFailedError) {
    const a = err.action;
    return {
      code: a.error ?? `write_${a.status}`,
      message: err.message,
      next_step:
        a.nextAction?.type === 'verify_result'
          ? 'Check on the platform whether it happened before sending it again.'
          : a.safeToRetry
            ? 'Safe to retry with a NEW idempotency_key.'
            : 'Do not retry as is: change the request or ask the user.',
    };
  }
  if (err instanceof ConnectionError) {
    return {
      code: 'connection_error',
      message: err.message,
      next_step: `Could not reach the service at ${baseUrl}: check XSVC_BASE_URL and that the service is up.`,
    };
  }
  if (err instanceof TimeoutError) {
    return {
      code: 'timeout',
      message: err.message,
      next_step: 'No answer in time: retry later; for a write, first check whether it happened.',
    };
  }
  if (err instanceof AbortError) {
    return { code: 'cancelled', message: err.message, next_step: 'The call was cancelled.' };
  }
  const message = err instanceof Error ? err.message : String(err);
  return {
    code: err instanceof XsvcError ? 'client_error' : 'internal_error',
    message,
    next_step: 'Unexpected failure of the MCP server: report it; retrying may not help.',
  };
}

function apiFailure(err: ApiError): ToolFailure {
  const retryAfter = err.retryAfter;
  const base = {
    code: err.code,
    status: err.status,
    message: err.reason ? `${err.message} (reason: ${err.reason})` : err.message,
    ...(retryAfter !== undefined && { retry_after_seconds: retryAfter }),
  };
  return { ...base, next_step: nextStep(err, retryAfter) };
}

function nextStep(err: ApiError, retryAfter: number | undefined): string {
  const own = BY_CODE[err.code];
  if (own) return own;
  const info = errorInfo(err.code, err.status);
  switch (info.status) {
    case 401:
      return 'The API key is missing or invalid: set XSVC_API_KEY (an svc_ key) in the environment of this MCP server and restart it.';
    case 402:
      // What the 402 code means comes from the contract's catalog; every 402 adds that nothing was charged.
      return `Billing: ${info.hint ?? 'payment is required'}. Nothing was paid or charged by this call. Ask the user to subscribe or buy credits in the dashboard; do not retry before.`;
    case 403:
      return 'Not permitted for this account or target: do not retry.';
    case 404:
      return 'Not found: check the id or username; retrying will not help.';
    case 409:
      return 'Conflict with the current state: read it before changing it.';
    case 410:
      return 'Gone: start over.';
    case 422:
      return 'The platform refused it: change the request; do not send it again as is.';
    case 429:
      return `Rate limited: wait ${retryAfter ?? 'a few'} seconds, then retry the same call.`;
    default:
      if (info.retry === 'transient') return 'Temporary failure: retry in a little while.';
      if (info.retry === 'poll') return 'Accepted but not confirmed: check it with write_actions get.';
      return 'Fix the params (explore gives the schema of this action) and call again.';
  }
}

/**
 * A tool error result (`isError: true`) of `action`, carrying the failure as text and as structured content
 * inside the tool's own envelope (`{ action, data: null, error }`), so that it matches the tool's output
 * schema: clients that validate error results too (the MCP SDK 1.x) read it instead of refusing it.
 */
export function failureResult(action: string, failure: ToolFailure): CallToolResult {
  const status = failure.status !== undefined ? ` (HTTP ${failure.status})` : '';
  return {
    isError: true,
    content: [
      { type: 'text', text: `${failure.code}${status}: ${failure.message}\nNext: ${failure.next_step}` },
    ],
    structuredContent: { action, data: null, error: failure },
  };
}
