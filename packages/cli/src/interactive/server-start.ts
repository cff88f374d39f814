import { existsSync } from 'node:fs';
import { ExitCode } from '../exit-codes.js';
import {
  type BootstrapLike,
  INSTALL_HINT,
  importServer,
  isServerMissing,
  type ServerConfigLike,
  type ServerLoader,
  type ServerModuleLike,
} from './server/module.js';
import { readNumber, readString } from './shared/options.js';
import { envOf, outputMode, writeJson, writeLine, writeNote } from './shared/output.js';
import { withUsageErrors } from './shared/usage-error.js';
import type { InteractiveCommand, InteractiveContext, RawOptions } from './types.js';

/** Options of `xsvc server start`; what is not given comes from the server's environment variables. */
export interface ServerStartOptions {
  readonly port?: number | undefined;
  readonly host?: string | undefined;
  readonly databaseUrl?: string | undefined;
}

/** Reads the raw options of `xsvc server start`. */
export function parseServerOptions(raw: RawOptions): ServerStartOptions {
  return {
    port: readNumber(raw, 'port', { min: 0, max: 65_535, integer: true }, '--port'),
    host: readString(raw, 'host', '--host'),
    databaseUrl: readString(raw, 'databaseUrl', '--database-url'),
  };
}

function configOf(
  server: ServerModuleLike,
  env: Readonly<Record<string, string | undefined>>,
  options: ServerStartOptions,
): ServerConfigLike {
  const flags = {
    ...(options.port !== undefined && { port: options.port }),
    ...(options.host !== undefined && { host: options.host }),
    ...(options.databaseUrl !== undefined && { databaseUrl: options.databaseUrl }),
  };
  return server.parseConfig({ ...server.configFromEnv(env), ...flags });
}

/** Where the owner key is saved, when it is. */
function savedKeyFile(boot: BootstrapLike, config: ServerConfigLike): string | undefined {
  if (boot.keyFile) return boot.keyFile;
  return config.keyFile && existsSync(config.keyFile) ? config.keyFile : undefined;
}

/** The owner key (once, at first start) and how to point this CLI at the server. */
function keyHint(boot: BootstrapLike, config: ServerConfigLike, url: string): string[] {
  const file = savedKeyFile(boot, config);
  const lines: string[] = [];
  if (boot.apiKey) {
    lines.push(
      '',
      `Owner API key (shown once${file ? `; also saved to ${file}` : ''}):`,
      '',
      `  ${boot.apiKey}`,
    );
  } else if (file) {
    lines.push('', `The owner API key is in ${file}.`);
  }
  const key = file ? `$(cat ${file})` : (boot.apiKey ?? '<owner API key>');
  lines.push(
    '',
    'Use it from this CLI:',
    '',
    `  export XSVC_BASE_URL=${url} XSVC_API_KEY=${key}`,
    '  xsvc account get',
    '',
  );
  return lines;
}

/**
 * `xsvc server start`: runs `@xsvc/server` in this process (SQLite by default, a simulated platform), prints
 * its URL and the owner key hint, and stops it when the signal aborts. When the server is not installed it
 * says how to install it and exits 1; a bad configuration exits 2 with the server's message.
 */
export async function startServer(
  ctx: InteractiveContext,
  options: ServerStartOptions,
  load: ServerLoader = importServer,
): Promise<number> {
  let server: ServerModuleLike;
  try {
    server = await load();
  } catch (err) {
    if (!isServerMissing(err)) throw err;
    writeNote(ctx, INSTALL_HINT);
    return ExitCode.error;
  }
  let config: ServerConfigLike;
  try {
    config = configOf(server, envOf(ctx), options);
  } catch (err) {
    if (!(err instanceof server.ConfigError)) throw err;
    writeNote(ctx, err.message);
    return ExitCode.usage;
  }
  const running = await server.createServer(config);
  try {
    const boot = await server.bootstrapOwner(running.services.database, config, Date.now());
    const address = await running.app.listen({ port: config.port, host: config.host });
    // The address Fastify reports carries the real port (also when --port 0 picked a free one).
    const url = config.publicUrl?.replace(/\/+$/, '') ?? address;
    const database = running.services.database.dialect;
    if (outputMode(ctx) === 'json') {
      writeJson(ctx, {
        url,
        address,
        platform: config.platform,
        database,
        apiKey: boot.apiKey,
        keyFile: boot.keyFile,
      });
    } else {
      writeLine(ctx, `xsvc server listening on ${url} (platform: ${config.platform}, database: ${database})`);
      for (const line of keyHint(boot, config, url)) writeLine(ctx, line);
      writeLine(ctx, 'Press Ctrl-C to stop.');
    }
    await aborted(ctx.signal);
    writeNote(ctx, 'Stopping the server…');
  } finally {
    await running.close();
  }
  return ExitCode.ok;
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** The runner the command layer loads. */
export const run: InteractiveCommand<RawOptions> = (ctx, raw) =>
  withUsageErrors(ctx, () => startServer(ctx, parseServerOptions(raw)));
