import type { FastifyInstance } from 'fastify';
import type { RouteRegistrar } from '../../app/app.js';
import { systemClock } from '../../core/clock.js';
import type { Db } from '../../core/db/database.js';
import { MonitorEngine, type MonitorEngineOptions } from './engine/engine.js';
import { countActiveMonitors } from './monitor-rows.js';

const engines = new WeakMap<FastifyInstance, MonitorEngine>();

/** The check engine of a built server's app (tests step it with `checkOnce()`), if the feature is mounted. */
export function monitorEngineOf(app: FastifyInstance): MonitorEngine | undefined {
  return engines.get(app);
}

/** The monitors feature of one server: its engine's mounting, and the count `GET /account` shows. */
export interface MonitorsFeature {
  /** Creates the check engine; it starts with the server (`onReady`) and stops on close. */
  register: RouteRegistrar;
  /** Active monitors (account and keyword) of an account, for `GET /account` `monitorsUsed`. */
  monitorsUsed(accountId: string): Promise<number>;
}

/**
 * The monitors feature for one server. The engine starts when the server is ready when `autoStart` says so
 * (by default: on the system clock; with an injected clock, whose owner steps `checkOnce()`), and always
 * stops, handing its shards back, when the server closes.
 */
export function createMonitorsFeature(options: MonitorEngineOptions = {}): MonitorsFeature {
  let database: Db | undefined;
  return {
    register(app, services) {
      database = services.database;
      const engine = new MonitorEngine(services, app.log, options);
      engines.set(app, engine);
      const autoStart = options.autoStart ?? services.clock === systemClock;
      app.addHook('onReady', async () => {
        if (autoStart) engine.start();
      });
      app.addHook('onClose', async () => engine.stop());
    },
    async monitorsUsed(accountId) {
      return database ? countActiveMonitors(database.db, accountId) : 0;
    },
  };
}
