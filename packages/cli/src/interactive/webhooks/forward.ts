import { limits } from '@xsvc/sdk/contract';
import type { Clock } from '../shared/timing.js';
import type { SignedDelivery } from './delivery.js';

/** The outcome of one forwarded delivery. */
export interface ForwardResult {
  /** The receiver's HTTP status; absent when it never answered. */
  readonly status?: number;
  /** True for a 2xx answer (spec 6.4: anything else counts as a failure). */
  readonly ok: boolean;
  /** Time to the answer's headers (or to the failure), in ms. */
  readonly latencyMs: number;
  /** Why no answer came: refused, timed out… */
  readonly error?: string;
}

/** What forwarding needs: the fetch to use (tests may pass their own), a clock and a time limit. */
export interface ForwardOptions {
  readonly fetch?: typeof fetch;
  readonly clock: Clock;
  /** Default 10 s: the service's own delivery timeout (spec 6.4 rule 5). */
  readonly timeoutMs?: number;
  readonly signal: AbortSignal;
}

function reasonOf(err: unknown): string {
  if (err instanceof Error) {
    if (err.name === 'TimeoutError') return 'timed out';
    const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
    if (cause && typeof cause.code === 'string') return cause.code;
    if (cause && typeof cause.message === 'string') return cause.message;
    return err.message;
  }
  return String(err);
}

/**
 * POSTs a signed delivery to a local endpoint as the service would: the exact signed body, the delivery
 * headers, no redirects followed, a time limit. The answer's body is discarded.
 */
export async function forwardDelivery(
  url: string,
  delivery: SignedDelivery,
  options: ForwardOptions,
): Promise<ForwardResult> {
  const started = options.clock();
  const timeout = AbortSignal.timeout(options.timeoutMs ?? limits.webhookTimeoutMs);
  try {
    const response = await (options.fetch ?? fetch)(url, {
      method: 'POST',
      headers: delivery.headers,
      body: delivery.body,
      redirect: 'manual',
      signal: AbortSignal.any([options.signal, timeout]),
    });
    const latencyMs = options.clock() - started;
    await response.body?.cancel().catch(() => undefined);
    return { status: response.status, ok: response.status >= 200 && response.status < 300, latencyMs };
  } catch (err) {
    return { ok: false, latencyMs: options.clock() - started, error: reasonOf(err) };
  }
}

/** `200 · 12 ms`, or `ECONNREFUSED · 3 ms`: one answer on one line. */
export function outcomeText(result: {
  readonly status?: number | undefined;
  readonly error?: string | undefined;
  readonly latencyMs: number;
}): string {
  return `${result.status ?? result.error ?? 'no answer'} · ${Math.round(result.latencyMs)} ms`;
}
