import type { Transport } from './core.js';
import { AbortError, TimeoutError, XsvcError } from './errors.js';
import { retryAfterMs, sleep } from './retry.js';
import type { WriteActionData } from './types.generated.js';
import type { Route } from './types.js';

/** The write-action body as the SDK reads it (unknown fields kept). */
export type { WriteActionData };

/** Options of {@link WriteAction.wait}. */
export interface WaitOptions {
  signal?: AbortSignal | undefined;
  /** Called with every polled state. */
  onProgress?: ((action: WriteActionData) => void) | undefined;
  /** Give up waiting after this long (the action goes on server-side). Default 10 minutes. */
  timeoutMs?: number | undefined;
}

const STATUS_ROUTE: Route = {
  id: 'getWriteActionStatus',
  method: 'GET',
  path: '/api/v1/x/write-actions/{id}',
  pathParams: ['id'],
  idempotent: true,
};

/** Thrown by `wait()` when the write ended unsuccessfully; `action` holds the terminal state. */
export class WriteActionFailedError extends XsvcError {
  static override readonly brand: string = 'WriteActionFailedError';
  override readonly name = 'WriteActionFailedError';
  constructor(readonly action: WriteActionData) {
    super(
      `write action ${action.id} ended ${action.status}${action.error ? ` (${action.error})` : ''}` +
        (action.nextAction?.type === 'verify_result'
          ? ': verify the result on the platform before sending it again'
          : action.safeToRetry
            ? ': safe to retry with a NEW idempotency key'
            : ''),
    );
  }
}

/**
 * A durable write (spec 2.16, 3.6, 4.13). Returned by every write method: when the service answered 200 the
 * action is already terminal; on 202 `wait()` polls `statusUrl`, honouring `pollAfterMs` and `Retry-After`.
 * It never re-sends the write: when `nextAction.type` is `verify_result` the caller must check the outcome.
 * Resume it later, in any process, with `client.writeActions.resume(id)`.
 */
export class WriteAction {
  /** The latest known state. */
  data: WriteActionData;
  private retryAfter: number | undefined;

  constructor(
    private readonly transport: Transport,
    data: WriteActionData,
    headers?: Headers,
  ) {
    this.data = data;
    this.retryAfter = retryAfterMs(headers, undefined, Date.now());
  }

  get id(): string {
    return this.data.id;
  }
  get status(): string {
    return this.data.status;
  }
  get terminal(): boolean {
    return this.data.terminal === true;
  }
  /** True when the write reached `success`. */
  get succeeded(): boolean {
    return this.data.status === 'success';
  }

  /** Fetches the current state once. */
  async refresh(options: { signal?: AbortSignal } = {}): Promise<WriteActionData> {
    const res = await this.transport.call<WriteActionData>(
      STATUS_ROUTE,
      { id: this.id },
      options.signal ? { signal: options.signal } : {},
    );
    this.data = res.data;
    this.retryAfter = retryAfterMs(res.headers, undefined, Date.now());
    return this.data;
  }

  /**
   * Polls until the action is terminal and returns it; throws {@link WriteActionFailedError} when it ended
   * `failed` or `expired`, {@link TimeoutError} when `timeoutMs` passes first.
   */
  async wait(options: WaitOptions = {}): Promise<WriteActionData> {
    const timeoutMs = options.timeoutMs ?? 600_000;
    const deadline = Date.now() + timeoutMs;
    while (!this.terminal) {
      const delay = Math.max(250, this.data.pollAfterMs ?? this.retryAfter ?? 1_000);
      if (Date.now() + delay > deadline) throw new TimeoutError(timeoutMs);
      try {
        await sleep(delay, options.signal);
      } catch (err) {
        throw new AbortError({ cause: err });
      }
      await this.refresh(options.signal ? { signal: options.signal } : {});
      options.onProgress?.(this.data);
    }
    if (!this.succeeded) throw new WriteActionFailedError(this.data);
    return this.data;
  }

  /** Loads a write action by id, to wait on it from another process or after a restart. */
  static async resume(
    transport: Transport,
    id: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<WriteAction> {
    const res = await transport.call<WriteActionData>(
      STATUS_ROUTE,
      { id },
      options.signal ? { signal: options.signal } : {},
    );
    return new WriteAction(transport, res.data, res.headers);
  }

  toJSON(): WriteActionData {
    return this.data;
  }
}
