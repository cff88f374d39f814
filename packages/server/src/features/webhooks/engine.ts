import { setMaxListeners } from 'node:events';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../core/db/database.js';
import { uuid } from '../../core/ids/index.js';
import { type ClaimedDelivery, claimDueDeliveries, releaseAllLeases, releaseLeases } from './claim.js';
import type { Dispatcher } from './dispatcher.js';
import { fanOutEvents } from './fanout.js';
import type { WebhookOptions } from './options.js';
import { type AttemptResult, recordResults } from './results.js';
import { eventBody, UndeliverableEventError } from './signed-request.js';

/** Where the engine reports what it cannot raise (it never crashes the process). */
export interface EngineLogger {
  error(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/** What a {@link DeliveryEngine.runDue} call did. */
export interface RunSummary {
  /** Stored events turned into deliveries. */
  events: number;
  /** Delivery attempts made. */
  attempts: number;
}

/** Counters of an engine since it was built (for logs, benchmarks and tests). */
export interface EngineStats {
  /** Attempts that came to an outcome (their results are then written in the next batch). */
  attempts: number;
  /** Of those, answered 2xx. */
  delivered: number;
}

/** What one cycle claimed. */
interface CycleResult {
  events: number;
  launched: number;
  /** True when the cycle filled its batch: more work is probably waiting. */
  full: boolean;
}

/**
 * The webhook delivery engine: turns the event outbox into deliveries and attempts every delivery that is
 * due, with leases so several instances share the work and a crash loses nothing (the rows are the
 * queue). Driven by the injected clock: `start()` polls in the background; tests leave it stopped and call
 * `runDue()` after moving a manual clock.
 */
export class DeliveryEngine {
  /** This engine's lease owner id. */
  readonly owner = `engine_${uuid()}`;
  /** What this engine has done so far. */
  readonly stats: EngineStats = { attempts: 0, delivered: 0 };
  private readonly inFlight = new Set<Promise<void>>();
  private readonly results: AttemptResult[] = [];
  private readonly released: string[] = [];
  private readonly abort = abortController();
  private lock: Promise<unknown> = Promise.resolve();
  private writes: Promise<void> = Promise.resolve();
  private writeScheduled = false;
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  private stopping = false;
  private backlog = false;

  constructor(
    private readonly database: Db,
    private readonly clock: Clock,
    private readonly dispatcher: Dispatcher,
    private readonly options: WebhookOptions,
    private readonly log: EngineLogger,
  ) {}

  /**
   * Starts polling. On SQLite, where this process is the only engine, leases left by a process that died
   * are released first, so its deliveries go out at once instead of when their leases expire.
   */
  async start(): Promise<void> {
    if (this.started || this.stopping) return;
    this.started = true;
    if (this.database.dialect === 'sqlite') {
      const n = await releaseAllLeases(this.database);
      if (n > 0) this.log.warn({ deliveries: n }, 'webhooks: released leases left by a previous process');
    }
    this.schedule(0);
  }

  /** Looks for work now instead of at the next poll (an event was just stored in this process). */
  wake(): void {
    if (this.started && !this.stopping) this.schedule(0);
  }

  /**
   * Runs everything that is due at the clock's current time until nothing is left: new events become
   * deliveries, due deliveries are attempted, results are recorded. Retries scheduled later wait for the
   * clock to reach them. Errors are thrown (unlike the background loop, which logs them).
   */
  async runDue(): Promise<RunSummary> {
    const summary: RunSummary = { events: 0, attempts: 0 };
    for (;;) {
      const r = await this.exclusive(() => this.cycle());
      await this.drain();
      summary.events += r.events;
      summary.attempts += r.launched;
      if (r.events === 0 && r.launched === 0) return summary;
    }
  }

  /**
   * Stops polling; attempts in flight get `stopGraceMs` to finish, then are cut off. Their results are
   * recorded; deliveries whose attempt was cut off or never started are released for the next engine.
   */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    await this.lock.catch(() => {});
    const grace = setTimeout(() => this.abort.abort(), this.options.stopGraceMs);
    await this.drain().catch((err: unknown) => this.log.error({ err }, 'webhooks: recording results failed'));
    clearTimeout(grace);
    await releaseLeases(this.database, this.owner).catch((err: unknown) =>
      this.log.error({ err }, 'webhooks: releasing leases failed'),
    );
  }

  private schedule(delayMs: number): void {
    if (this.stopping) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), delayMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    let again = this.options.pollIntervalMs;
    try {
      const r = await this.exclusive(() => this.cycle());
      // More is waiting: go again at once while there is room to claim a good batch, or else as soon as
      // attempts in flight drop below half the limit (see launch), instead of at the next poll.
      this.backlog = r.full;
      if (r.full && this.inFlight.size < this.lowWatermark()) again = 0;
    } catch (err) {
      this.log.error({ err }, 'webhooks: delivery cycle failed; retrying at the next poll');
    }
    if (!this.timer) this.schedule(again);
  }

  /** Serializes cycles (the background loop and `runDue` may overlap). */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.lock.then(fn, fn);
    this.lock = run.catch(() => {});
    return run;
  }

  /** One pass: fan out new events, then claim and launch what is due, up to the free capacity. */
  private async cycle(): Promise<CycleResult> {
    if (this.stopping && this.started) return { events: 0, launched: 0, full: false };
    const { batchSize, maxInFlight, leaseMs } = this.options;
    const now = this.clock.now();
    const fanned = await fanOutEvents(this.database, now, batchSize);
    const capacity = Math.min(batchSize, maxInFlight - this.inFlight.size);
    const claimed = await claimDueDeliveries(this.database, this.owner, now, leaseMs, capacity);
    if (claimed.length > 0) await this.launch(claimed);
    return {
      events: fanned.events,
      launched: claimed.length,
      full: fanned.events === batchSize || claimed.length === capacity,
    };
  }

  /** Attempts in flight below which a waiting backlog is claimed at once. */
  private lowWatermark(): number {
    return Math.max(1, Math.floor(this.options.maxInFlight / 2));
  }

  private async launch(claimed: readonly ClaimedDelivery[]): Promise<void> {
    const db = this.database.db;
    const webhookIds = [...new Set(claimed.map((c) => c.webhookId))];
    const eventIds = [...new Set(claimed.map((c) => c.eventId))];
    const [webhooks, events] = await Promise.all([
      db.selectFrom('webhooks').select(['id', 'url', 'secret']).where('id', 'in', webhookIds).execute(),
      db.selectFrom('events').select(['id', 'payload']).where('id', 'in', eventIds).execute(),
    ]);
    const webhookById = new Map(webhooks.map((w) => [w.id, w]));
    const payloadById = new Map(events.map((e) => [e.id, e.payload]));
    for (const delivery of claimed) {
      const run = this.attempt(
        delivery,
        webhookById.get(delivery.webhookId),
        payloadById.get(delivery.eventId),
      );
      this.inFlight.add(run);
      void run.finally(() => {
        this.inFlight.delete(run);
        if (this.backlog && this.inFlight.size === this.lowWatermark() - 1) this.wake();
      });
    }
  }

  private async attempt(
    delivery: ClaimedDelivery,
    webhook: { url: string; secret: string } | undefined,
    payload: string | undefined,
  ): Promise<void> {
    try {
      if (!webhook) return this.release(delivery.id);
      let body: string;
      try {
        if (payload === undefined)
          throw new UndeliverableEventError(`stored event ${delivery.eventId} no longer exists`);
        body = eventBody(payload, delivery.eventId, delivery.id);
      } catch (err) {
        if (!(err instanceof UndeliverableEventError)) throw err;
        const outcome = { ok: false, statusCode: null, error: err.message };
        const at = this.clock.now();
        return this.record({ delivery, outcome, at, startedAt: at, durationMs: 0, undeliverable: true });
      }
      const startedAt = this.clock.now();
      const began = performance.now();
      const outcome = await this.dispatcher.send(webhook.url, webhook.secret, body, this.abort.signal);
      const durationMs = Math.round(performance.now() - began);
      if (this.abort.signal.aborted && !outcome.ok && outcome.statusCode === null)
        return this.release(delivery.id);
      this.record({ delivery, outcome, at: this.clock.now(), startedAt, durationMs });
    } catch (err) {
      this.log.error({ err, deliveryId: delivery.id }, 'webhooks: attempt failed unexpectedly');
      this.release(delivery.id);
    }
  }

  private record(result: AttemptResult): void {
    this.stats.attempts++;
    if (result.outcome.ok) this.stats.delivered++;
    this.results.push(result);
    this.scheduleWrite();
  }

  private release(deliveryId: string): void {
    this.released.push(deliveryId);
    this.scheduleWrite();
  }

  /** Results are written in batches: every attempt that ended in the same turn shares one transaction. */
  private scheduleWrite(): void {
    if (this.writeScheduled) return;
    this.writeScheduled = true;
    this.writes = this.writes.then(async () => {
      await new Promise<void>((resolve) => setImmediate(resolve));
      this.writeScheduled = false;
      const results = this.results.splice(0);
      const released = this.released.splice(0);
      try {
        const { needsAttention } = await recordResults(this.database, this.owner, results, this.options);
        for (const id of needsAttention)
          this.log.warn({ webhookId: id }, 'webhooks: endpoint reached its failure cap: needs_attention');
        await releaseLeases(this.database, this.owner, released);
      } catch (err) {
        // The leases expire and the deliveries are attempted again: at least once, never lost.
        this.log.error({ err, deliveries: results.length }, 'webhooks: recording attempt results failed');
      }
    });
  }

  /** Waits for every attempt in flight and for their results to be written. */
  private async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    await this.writes;
  }
}

/** The engine's stop signal: every attempt in flight listens to it, so it may have many listeners. */
function abortController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}
