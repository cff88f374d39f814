import type { Db } from '../../core/db/database.js';
import type { RouteRegistrar } from '../../core/feature.js';
import type { TargetPolicy } from '../../core/ssrf/target.js';
import { createDispatcher, type Dispatcher } from './dispatcher.js';
import { DeliveryEngine } from './engine.js';
import { type WebhookOptions, webhookOptions } from './options.js';
import { createThreadedDispatcher } from './threaded-dispatcher.js';
import { closeAgents, createAgents } from './transport.js';

/** The webhooks feature of one server: its engine, its dispatcher and the settings they run with. */
export interface WebhookRuntime {
  readonly engine: DeliveryEngine;
  readonly dispatcher: Dispatcher;
  readonly options: WebhookOptions;
  readonly policy: TargetPolicy;
}

// One runtime per server, found through the server's database (which handlers and other features hold).
const runtimes = new WeakMap<Db, WebhookRuntime>();

/**
 * The plain-route part of the webhooks feature: builds the delivery engine of a server, starts it when the
 * server listens (unless `autoStart` is off) and stops it when the server closes. Options override the
 * defaults of {@link webhookOptions} (tests inject DNS, jitter and a stopped engine).
 */
export function webhookRoutes(overrides: Partial<WebhookOptions> = {}): RouteRegistrar {
  return (app, services) => {
    const options = webhookOptions({ senderThreads: services.config.webhookThreads, ...overrides });
    const policy: TargetPolicy = { allowLoopback: services.config.allowLoopbackWebhooks };
    const guard = {
      policy,
      resolver: options.resolver,
      clock: services.clock,
      limits: { timeoutMs: options.timeoutMs, maxResponseBytes: options.maxResponseBytes },
    };
    let closeDispatcher: () => Promise<void> | void;
    let dispatcher: Dispatcher;
    if (options.senderThreads > 0) {
      const threaded = createThreadedDispatcher({
        ...guard,
        threads: options.senderThreads,
        onThreadError: (err) =>
          app.log.error({ err }, 'webhooks: a sender thread failed; its POSTs are retried'),
      });
      dispatcher = threaded;
      closeDispatcher = () => threaded.close();
    } else {
      const agents = createAgents();
      dispatcher = createDispatcher({ ...guard, agents });
      closeDispatcher = () => closeAgents(agents);
    }
    const engine = new DeliveryEngine(
      services.database,
      services.clock,
      dispatcher,
      options,
      app.log,
      services.jobs,
      services.secrets,
    );
    runtimes.set(services.database, { engine, dispatcher, options, policy });
    if (options.autoStart) app.addHook('onListen', () => engine.start());
    app.addHook('onClose', async () => {
      await engine.stop();
      await closeDispatcher();
      runtimes.delete(services.database);
    });
  };
}

/** The webhooks runtime of the server that owns `database`; throws when the feature is not mounted. */
export function webhookRuntime(database: Db): WebhookRuntime {
  const runtime = runtimes.get(database);
  if (!runtime) throw new Error('the webhooks feature is not mounted on this server (webhookRoutes)');
  return runtime;
}

/** The delivery engine of the server that owns `database`, if the webhooks feature is mounted. */
export function deliveryEngineFor(database: Db): DeliveryEngine | undefined {
  return runtimes.get(database)?.engine;
}

/**
 * Tells the engine that events were just stored in this process (for example by a monitor), so they go out
 * now instead of at the next poll. A no-op when the feature is not mounted or the engine is not running.
 */
export function wakeWebhookDeliveries(database: Db): void {
  runtimes.get(database)?.engine.wake();
}
