import { existsSync } from 'node:fs';
import type { Config } from '../core/config.js';
import { describeKeySource } from '../core/crypto/key-source.js';
import { serverVersion } from '../features/discovery/version.js';
import type { XsvcServer } from './app.js';
import { jsonLine, readyRecord, renderBanner, type StartFacts } from './banner.js';
import type { BootstrapResult } from './bootstrap.js';
import type { LogFormat, MaybeTerminal } from './logging.js';
import { ownerSignInLink } from './owner-sign-in.js';

/** What a listening server tells about itself, with a fresh single-use sign-in link for the owner. */
export async function startFacts(
  server: XsvcServer,
  config: Config,
  boot: BootstrapResult,
  address: string,
): Promise<StartFacts> {
  const keyFile = boot.keyFile ?? (config.keyFile && existsSync(config.keyFile) ? config.keyFile : undefined);
  return {
    version: serverVersion(),
    address,
    url: server.services.publicUrl(),
    platform: config.platform,
    database: server.services.database.dialect,
    key: keyFile ? { file: keyFile } : config.bootstrapApiKey ? { env: 'XSVC_BOOTSTRAP_API_KEY' } : null,
    newKey: boot.apiKey,
    signIn: await ownerSignInLink(server.services),
    secretKey: describeKeySource(server.secretKeySource),
  };
}

/**
 * Writes what the server says once it listens: the banner for a person (the readable log format), or one
 * JSON record with the same facts (JSON logs).
 */
export function writeStartReport(
  facts: StartFacts,
  format: LogFormat,
  out: NodeJS.WritableStream & MaybeTerminal,
  env: Record<string, string | undefined> = process.env,
): void {
  if (format === 'json') out.write(jsonLine(readyRecord(facts)));
  else out.write(renderBanner(facts, { color: out.isTTY === true && env.NO_COLOR === undefined }));
}
