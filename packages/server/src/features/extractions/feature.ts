import type { RouteRegistrar } from '../../app/app.js';
import type { Db } from '../../core/db/database.js';
import { ExtractionRunner, type ExtractionRunnerOptions } from './runner.js';

// One runner per server, found through the server's database (which handlers hold).
const runners = new WeakMap<Db, ExtractionRunner>();

/**
 * The extractions feature of one server: builds its job runner, starts it when the server is ready (so
 * `running` jobs left by a previous process resume) unless `autoStart` is off, and stops it when the
 * server closes, handing unfinished jobs back.
 */
export function extractionRoutes(options: ExtractionRunnerOptions = {}): RouteRegistrar {
  return (app, services) => {
    const runner = new ExtractionRunner(services, app.log, options);
    runners.set(services.database, runner);
    app.addHook('onReady', async () => {
      if (options.autoStart ?? true) await runner.start();
    });
    app.addHook('onClose', async () => {
      await runner.stop();
      if (runners.get(services.database) === runner) runners.delete(services.database);
    });
  };
}

/** The job runner of the server that owns `database`; throws when the feature is not mounted. */
export function extractionRunner(database: Db): ExtractionRunner {
  const runner = runners.get(database);
  if (!runner) throw new Error('the extractions feature is not mounted on this server (extractionRoutes)');
  return runner;
}
