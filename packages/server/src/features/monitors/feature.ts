import type { FastifyInstance } from 'fastify';
import { systemClock } from '../../core/clock.js';
import { defineFeature } from '../../core/feature.js';
import { MonitorEngine, type MonitorEngineOptions } from './engine/engine.js';
import { BILLING_JOB_KIND, SHARD_JOB_KIND } from './engine/leases.js';
import { monitorHandlers } from './handlers.js';
import { keywordMonitorHandlers } from './keyword-handlers.js';
import { countActiveMonitors } from './monitor-rows.js';
import { MONITORS_TABLES } from './tables.js';

const engines = new WeakMap<FastifyInstance, MonitorEngine>();

/** The check engine of a built server's app (tests step it with `checkOnce()`), if the feature is mounted. */
export function monitorEngineOf(app: FastifyInstance): MonitorEngine | undefined {
  return engines.get(app);
}

/**
 * The monitors feature for one server (spec 4.5, 4.6): account and keyword monitors, and their check
 * engine. The engine starts when the server is ready when `autoStart` says so (by default: on the system
 * clock; with an injected clock, whose owner steps `checkOnce()`), and always stops, handing its shards
 * back, when the server closes. It tells the others how many monitors an account runs (`monitorsUsed`).
 */
export function monitorsFeature(options: MonitorEngineOptions = {}) {
  return defineFeature({
    name: 'monitors',
    tables: MONITORS_TABLES,
    handlers: { ...monitorHandlers, ...keywordMonitorHandlers },
    jobs: [SHARD_JOB_KIND, BILLING_JOB_KIND],
    routes(app, services) {
      const engine = new MonitorEngine(services, app.log, options);
      engines.set(app, engine);
      const autoStart = options.autoStart ?? services.clock === systemClock;
      app.addHook('onReady', async () => {
        if (autoStart) engine.start();
      });
      app.addHook('onClose', async () => engine.stop());
    },
    ports: (services) => ({
      monitorsUsed: (accountId) => countActiveMonitors(services.database.db, accountId),
    }),
  });
}
