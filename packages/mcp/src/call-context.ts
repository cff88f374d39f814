import type { Transport } from '@xsvc/sdk/transport';

/** What serving one tool call needs beside its arguments. */
export interface CallContext {
  /** The SDK client's transport: base URL, credentials, retry policy. */
  readonly transport: Transport;
  /** Deadline of one API call, retries included (a longer `Retry-After` becomes a tool error to act on). */
  readonly callTimeoutMs: number;
  /** How long a durable write is waited for before it is reported pending. */
  readonly writeWaitMs: number;
  /** Aborted when the MCP client cancels the call. */
  readonly signal?: AbortSignal;
}
