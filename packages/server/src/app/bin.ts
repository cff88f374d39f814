#!/usr/bin/env node
import { ConfigError, configFromEnv } from '../core/config.js';
import { DatabaseOpenError } from '../core/db/database.js';
import { databaseFault, describeFault } from '../core/db/faults.js';
import { serverVersion } from '../features/discovery/version.js';
import { bootstrapOwner } from './bootstrap.js';
import { installLastResort } from './last-resort.js';
import { resolveLogFormat } from './logging.js';
import { checkPortFree, PortUnavailableError, portMessage } from './port-check.js';
import { rotateSecretKey } from './rotate-secret-key.js';
import { startupProgress } from './seed-progress-view.js';
import { createServer } from './server.js';
import { startFacts, writeStartReport } from './start-report.js';
import { parseArgs, UsageError, usage } from './usage.js';

/** `xsvc-server`: reads the configuration from the environment, prepares the database, listens. */
async function main(): Promise<void> {
  const asked = parseArgs(process.argv.slice(2));
  if (asked === 'help') return void process.stdout.write(usage());
  if (asked === 'version') return void process.stdout.write(`${serverVersion()}\n`);
  const config = configFromEnv();
  if (asked === 'rotate-secret-key') {
    const report = await rotateSecretKey(config);
    process.stdout.write(
      `secret key rotated: ${report.resealed} values sealed again under XSVC_SECRET_KEY, ${report.sealed} sealed from clear; XSVC_SECRET_KEY_PREVIOUS can go once every instance runs with the new key\n`,
    );
    return;
  }
  const lastResort = installLastResort();
  // The port first: opening the database and seeding take a while and write files.
  await checkPortFree(config.port, config.host);
  const logFormat = resolveLogFormat(config.logFormat, process.stdout);
  const progress = startupProgress(logFormat, process.stdout, process.stderr);
  const server = await createServer(config, { logFormat, onSeedProgress: progress.listener }).finally(
    progress.finish,
  );
  let address: string;
  try {
    address = await server.app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await server.close();
    const code = (err as NodeJS.ErrnoException).code;
    if (code?.startsWith('E')) throw new PortUnavailableError(portMessage(config.port, config.host, code));
    throw err;
  }
  lastResort.listening(server.app.log);
  const boot = await bootstrapOwner(server.services.database, config, Date.now());
  writeStartReport(await startFacts(server, config, boot, address), logFormat, process.stdout);
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  if (
    err instanceof ConfigError ||
    err instanceof PortUnavailableError ||
    err instanceof UsageError ||
    err instanceof DatabaseOpenError
  ) {
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
  // The database went away during the start (seeding, the owner's key): the environment's fault, one line.
  const fault = databaseFault(err);
  if (fault) {
    process.stderr.write(`xsvc-server cannot use its database: ${describeFault(fault)}\n`);
    process.exit(2);
  }
  process.stderr.write(
    `xsvc-server failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
