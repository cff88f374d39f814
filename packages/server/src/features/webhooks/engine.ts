import type { Kysely } from 'kysely';
import { BoundedCache } from '../../core/bounded-cache.js';
import type { Clock } from '../../core/clock.js';
import type { SecretKeys } from '../../core/crypto/secret-box.js';
import type { Db } from '../../core/db/database.js';
import { num } from '../../core/db/database.js';
import { inList } from '../../core/db/lists.js';
import type { Database } from '../../core/db/schema.js';
import type { Job, JobContext, JobKind, JobsEngine, Settled } from '../../core/jobs/index.js';
import { DELIVERY_JOB_KIND, OPEN_STATUSES, parkDeliveryIds } from './deliveries-repository.js';
import type { Dispatcher } from './dispatcher.js';
import { fanOutEvents, type HeldDelivery } from './fanout.js';
import type { WebhookOptions } from './options.js';
import {
  type AttemptResult,
  type ClaimedDelivery,
  decideRetry,
  jobOutcome,
  writeResults,
} from './results.js';
import { eventBody, UndeliverableEventError } from './signed-request.js';
import { openWebhookSecret } from './webhook-secret.js';
import { isDeliverable } from './webhooks-repository.js';

/**
 * Endpoints' signing secrets as opened, by their sealed value, per set of server keys: each attempt
 * needs its endpoint's, and opening one (AES-GCM) cost more than the rest of preparing the request. A
 * sealed value opens to the same secret under the same keys; a changed secret is a new sealed value.
 */
const openedSecrets = new BoundedCache<SecretKeys, string>(1024);

/** An attempt's result while it is being settled: its retry is not decided yet. */
type Unsettled = { -readonly [K in keyof AttemptResult]: AttemptResult[K] };

/** The payload of the jobs the fan-out creates held (they have none; never changed). */
const NO_PAYLOAD = Object.freeze({});

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

/**
 * The webhook delivery kind on the server's jobs engine: before each claim the event outbox is fanned out
 * into deliveries, each with its job (`webhook.delivery`, keyed by the delivery id). The deliveries this
 * engine has room for are created held by it and attempted at once with what the fan-out read; the others,
 * and retries, are claimed. Attempts run concurrently, and each one's result is written with its job's
 * outcome in the batch gathered while it ended (`settleDelayMs`; retries with the spec's backoff are the
 * job's `retry`, delivered or exhausted its end).
 * `start()`/`stop()`/`wake()`/`runDue()` drive that one kind (tests leave it stopped and call `runDue()`
 * after moving a manual clock).
 */
export class DeliveryEngine {
  /** What this engine has done so far. */
  readonly stats: EngineStats = { attempts: 0, delivered: 0 };
  private fanned = 0;
  private launched = 0;
  /** Deliveries the fan-out created held, by job id, until their batch is launched (at once). */
  private readonly inHand = new Map<string, HeldDelivery>();

  constructor(
    private readonly database: Db,
    private readonly clock: Clock,
    private readonly dispatcher: Dispatcher,
    private readonly options: WebhookOptions,
    private readonly log: EngineLogger,
    private readonly jobs: JobsEngine,
    /** The server's keys: the endpoints' signing secrets are stored sealed. */
    private readonly secrets: SecretKeys,
  ) {
    jobs.register(this.kind());
  }

  /** This engine's lease owner id (the jobs engine's). */
  get owner(): string {
    return this.jobs.owner;
  }

  /** Starts polling (leases this instance held before a restart are released first). */
  async start(): Promise<void> {
    await this.jobs.start([DELIVERY_JOB_KIND]);
  }

  /** Looks for work now instead of at the next poll (an event was just stored in this process). */
  wake(): void {
    this.jobs.wake(DELIVERY_JOB_KIND);
  }

  /**
   * Runs everything that is due at the clock's current time until nothing is left: new events become
   * deliveries, due deliveries are attempted, results are recorded. Retries scheduled later wait for the
   * clock to reach them.
   */
  async runDue(): Promise<RunSummary> {
    const events = this.fanned;
    const attempts = this.launched;
    await this.jobs.runDue([DELIVERY_JOB_KIND]);
    return { events: this.fanned - events, attempts: this.launched - attempts };
  }

  /**
   * Stops polling; attempts in flight get `stopGraceMs` to finish, then are cut off. Their results are
   * recorded; deliveries whose attempt was cut off or never started are released for the next engine.
   */
  async stop(): Promise<void> {
    await this.jobs.stop([DELIVERY_JOB_KIND]);
  }

  private kind(): JobKind {
    const { batchSize, maxInFlight, leaseMs, pollIntervalMs, stopGraceMs, settleDelayMs } = this.options;
    return {
      name: DELIVERY_JOB_KIND,
      batchSize,
      concurrency: maxInFlight,
      leaseMs,
      pollMs: pollIntervalMs,
      stopGraceMs,
      settleDelayMs,
      feed: async ({ database, now, limit, owner, leaseMs: lease, hold }) => {
        // With no room, the events still become deliveries (listed at once), claimed when room frees up.
        if (hold <= 0) {
          const r = await fanOutEvents(database, now, limit);
          this.fanned += r.events;
          return r.events;
        }
        // Else only what this engine has room for: those deliveries are held and attempted at once (no claim,
        // no read); the other events wait in the outbox, for this engine's next pass or another instance's.
        const take = Math.min(limit, hold);
        const r = await fanOutEvents(database, now, take, { owner, leaseUntil: now + lease, max: hold });
        this.fanned += r.events;
        const held: Job[] = r.held.map((h) => {
          this.inHand.set(h.jobId, h);
          return {
            id: h.jobId,
            kind: DELIVERY_JOB_KIND,
            key: h.delivery.id,
            payload: NO_PAYLOAD,
            attempts: 0,
            dueAt: now,
          };
        });
        return { fed: r.events, held, more: r.events >= take };
      },
      run: async (jobs, ctx) => {
        await this.launch(jobs, ctx);
        return undefined;
      },
      settle: (trx, settled) => this.record(trx, settled),
      onError: (_job, err) => {
        this.log.error({ err }, 'webhooks: attempt failed unexpectedly');
        return { type: 'release' };
      },
    };
  }

  private async launch(all: readonly Job[], ctx: JobContext): Promise<void> {
    // Deliveries the fan-out created held come with what their attempt needs: no read.
    const jobs: Job[] = [];
    const attempts: Promise<void>[] = [];
    for (const job of all) {
      const h = this.inHand.get(job.id);
      if (!h) {
        jobs.push(job);
        continue;
      }
      this.inHand.delete(job.id);
      attempts.push(this.attempt(job, h.delivery, h, h.payload, ctx));
    }
    if (jobs.length > 0) attempts.push(this.launchClaimed(jobs, ctx));
    await Promise.all(attempts);
  }

  private async launchClaimed(jobs: readonly Job[], ctx: JobContext): Promise<void> {
    const db = this.database.db;
    const byId = new Map(jobs.map((j) => [j.key as string, j]));
    const rows = await db
      .selectFrom('webhook_deliveries')
      .select(['id', 'webhook_id', 'account_id', 'event_id', 'event_type', 'attempts', 'status'])
      .where(inList(db, 'id', [...byId.keys()]))
      .execute();
    const deliveries = new Map(rows.map((r) => [r.id, r]));
    const webhookIds = [...new Set(rows.map((c) => c.webhook_id))];
    const eventIds = [...new Set(rows.map((c) => c.event_id))];
    const [webhooks, events] = await Promise.all([
      webhookIds.length === 0
        ? []
        : db
            .selectFrom('webhooks')
            .select(['id', 'url', 'secret', 'is_active', 'health'])
            .where(inList(db, 'id', webhookIds))
            .execute(),
      eventIds.length === 0
        ? []
        : db
            .selectFrom('events')
            .select(['id', 'payload'])
            .where(inList(db, 'id', eventIds))
            .execute(),
    ]);
    const webhookById = new Map(webhooks.map((w) => [w.id, w]));
    const payloadById = new Map(events.map((e) => [e.id, e.payload]));
    await Promise.all(
      jobs.map((job) => {
        const row = deliveries.get(job.key as string);
        // Gone (its webhook was deleted) or no longer open: nothing to attempt.
        if (!row || !OPEN_STATUSES.includes(row.status)) return ctx.settle(job, { type: 'done' });
        const webhook = webhookById.get(row.webhook_id);
        if (!webhook) return ctx.settle(job, { type: 'done' });
        // Switched off or needing attention since it was claimed: the delivery and its job are parked.
        if (!isDeliverable(webhook)) return ctx.settle(job, { type: 'release' }, { park: row.id });
        const delivery: ClaimedDelivery = {
          id: row.id,
          webhookId: row.webhook_id,
          accountId: row.account_id,
          eventId: row.event_id,
          eventType: row.event_type,
          attempts: num(row.attempts),
        };
        return this.attempt(job, delivery, webhook, payloadById.get(row.event_id), ctx);
      }),
    );
  }

  private async attempt(
    job: Job,
    delivery: ClaimedDelivery,
    webhook: { url: string; secret: string },
    payload: string | undefined,
    ctx: JobContext,
  ): Promise<void> {
    try {
      let body: string;
      try {
        if (payload === undefined)
          throw new UndeliverableEventError(`stored event ${delivery.eventId} no longer exists`);
        body = eventBody(payload, delivery.eventId, delivery.id);
      } catch (err) {
        if (!(err instanceof UndeliverableEventError)) throw err;
        const outcome = { ok: false, statusCode: null, error: err.message };
        const at = this.clock.now();
        this.launched++;
        return this.finish(job, ctx, {
          delivery,
          outcome,
          at,
          startedAt: at,
          durationMs: 0,
          undeliverable: true,
          retryInMs: undefined,
        });
      }
      this.launched++;
      const startedAt = this.clock.now();
      const began = performance.now();
      const secret = openedSecrets.get(this.secrets, webhook.secret, () =>
        openWebhookSecret(this.secrets, webhook.secret),
      );
      const outcome = await this.dispatcher.send(webhook.url, secret, body, ctx.signal);
      const durationMs = Math.round(performance.now() - began);
      if (ctx.signal.aborted && !outcome.ok && outcome.statusCode === null)
        return ctx.settle(job, { type: 'release' });
      this.finish(job, ctx, {
        delivery,
        outcome,
        at: this.clock.now(),
        startedAt,
        durationMs,
        undeliverable: false,
        retryInMs: undefined,
      });
    } catch (err) {
      this.log.error({ err, deliveryId: delivery.id }, 'webhooks: attempt failed unexpectedly');
      ctx.settle(job, { type: 'release' });
    }
  }

  /** Decides the attempt's retry on the result itself (made here, not shared: no copy per attempt). */
  private finish(job: Job, ctx: JobContext, result: Unsettled): void {
    this.stats.attempts++;
    if (result.outcome.ok) this.stats.delivered++;
    result.retryInMs = decideRetry(result, this.options);
    ctx.settle(job, jobOutcome(result), result);
  }

  /** The settle of a batch: the attempts' rows, in the transaction that settles their jobs. */
  private async record(trx: Kysely<Database>, settled: readonly Settled[]): Promise<void> {
    const results: AttemptResult[] = [];
    const park: string[] = [];
    for (const s of settled) {
      const data = s.data as AttemptResult | { park: string } | undefined;
      if (data && 'park' in data) park.push(data.park);
      else if (data) results.push(data);
    }
    if (park.length > 0) await parkDeliveryIds(trx, park, this.clock.now());
    const { needsAttention } = await writeResults(trx, results);
    for (const id of needsAttention)
      this.log.warn(
        { webhookId: id },
        'webhooks: endpoint reached its failure cap or answered 410: needs_attention',
      );
  }
}
