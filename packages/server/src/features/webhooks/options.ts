import { limits } from '@xsvc/sdk/contract';
import { type Resolver, systemResolver } from '../../core/ssrf/target.js';

/** Settings of the webhooks feature; every one has a default suited to a real deployment. */
export interface WebhookOptions {
  /** Start the delivery engine when the server listens (default true). Off: call `runDue()` yourself. */
  readonly autoStart: boolean;
  /** How often the engine looks for new events and due retries, in ms (default 50). */
  readonly pollIntervalMs: number;
  /** Outbox rows and deliveries taken per database round trip (default 256). */
  readonly batchSize: number;
  /** Attempts in flight at once per engine (default 256). */
  readonly maxInFlight: number;
  /** One attempt's time limit, DNS, connection and answer included (default 10 s, spec 6.4). */
  readonly timeoutMs: number;
  /** Bytes of an answer read at most (default 64 KiB); the rest is cut off. */
  readonly maxResponseBytes: number;
  /** How long a claimed delivery stays with this engine before another may take it (default timeout + 10 s). */
  readonly leaseMs: number;
  /** Consecutive failures that set `needs_attention` on new webhooks (default 50). */
  readonly failureHardCap: number;
  /** Retry jitter: up to this share of the delay is added (default 0.1). */
  readonly jitterRatio: number;
  /** Source of the jitter (default Math.random; tests pin it). */
  readonly random: () => number;
  /** DNS (default the system resolver; tests inject names). */
  readonly resolver: Resolver;
  /** On stop, attempts in flight get this long to finish before they are cut off and released (default 3 s). */
  readonly stopGraceMs: number;
  /**
   * Threads that make the deliveries' HTTP requests (`XSVC_WEBHOOK_THREADS`; default 0: the server's own
   * thread). With cores to spare, 1 or 2 take the HTTP work off the event loop, which keeps the database work.
   */
  readonly senderThreads: number;
  /**
   * During a burst, attempts' results wait this long to be written together (default 5 ms): fewer, bigger
   * transactions. The last results of a burst are written at once.
   */
  readonly settleDelayMs: number;
}

/** The defaults, with any of them overridden. */
export function webhookOptions(overrides: Partial<WebhookOptions> = {}): WebhookOptions {
  const timeoutMs = overrides.timeoutMs ?? limits.webhookTimeoutMs;
  return {
    autoStart: true,
    pollIntervalMs: 50,
    batchSize: 256,
    maxInFlight: 256,
    maxResponseBytes: 64 * 1024,
    leaseMs: timeoutMs + 10_000,
    failureHardCap: 50,
    jitterRatio: 0.1,
    random: Math.random,
    resolver: systemResolver,
    stopGraceMs: 3_000,
    senderThreads: 0,
    settleDelayMs: 5,
    ...overrides,
    timeoutMs,
  };
}
