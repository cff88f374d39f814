import type { FastifyInstance } from 'fastify';
import type { Db } from '../../core/db/database.js';
import type { Services } from '../../core/services.js';
import { ExtractionRunner, type ExtractionRunnerOptions } from './runner.js';

// One runner per server, found through the server's database (which handlers hold).
const runners = new WeakMap<Db, ExtractionRunner>();

/** Mounts the job runner of one server: started when ready, stopped on close. */
export function runnerRoutes(options: ExtractionRunnerOptions) {
  return (app: FastifyInstance, services: Services) => {
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
  if (!runner) throw new Error('the extractions feature is not mounted on this server (extractionsFeature)');
  return runner;
}
