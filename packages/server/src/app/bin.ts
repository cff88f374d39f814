#!/usr/bin/env node
import { ConfigError, configFromEnv } from '../core/config.js';
import { describeKeySource } from '../core/crypto/key-source.js';
import { serverVersion } from '../features/discovery/version.js';
import { bootstrapOwner } from './bootstrap.js';
import { checkPortFree, PortUnavailableError, portMessage } from './port-check.js';
import { rotateSecretKey } from './rotate-secret-key.js';
import { createServer } from './server.js';
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
  // The port first: opening the database and seeding take a while and write files.
  await checkPortFree(config.port, config.host);
  const server = await createServer(config);
  let address: string;
  try {
    address = await server.app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await server.close();
    const code = (err as NodeJS.ErrnoException).code;
    if (code?.startsWith('E')) throw new PortUnavailableError(portMessage(config.port, config.host, code));
    throw err;
  }
  const boot = await bootstrapOwner(server.services.database, config, Date.now());
  const base = server.services.publicUrl();
  const out = process.stdout;
  out.write(
    `\nxsvc server listening on ${address} (platform: ${config.platform}, database: ${server.services.database.dialect})\n`,
  );
  if (boot.apiKey) {
    out.write(
      `\nOwner API key (shown once${boot.keyFile ? `; also written to ${boot.keyFile}, mode 0600` : ''}):\n\n  ${boot.apiKey}\n`,
    );
  }
  out.write(`\nSecret key: ${describeKeySource(server.secretKeySource)}\n`);
  const keyRef = boot.keyFile ? `$(cat ${boot.keyFile})` : '$XSVC_API_KEY';
  out.write(`\nTry it:\n\n  curl -s -H "x-api-key: ${keyRef}" ${base}/api/v1/account\n\n`);
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof PortUnavailableError || err instanceof UsageError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(
    `xsvc-server failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
