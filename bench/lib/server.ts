import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  bootstrapOwner,
  type ConfigInput,
  type CreateServerDeps,
  createServer,
  parseConfig,
  type XsvcServer,
} from '@xsvc/server';

/**
 * A benchmark's server: the real service (not listening until the benchmark says so) on a SQLite file in
 * WAL mode, the default engine, in a temporary folder of its own, with an owner account and its API key.
 */
export interface BenchServer {
  readonly server: XsvcServer;
  /** The owner's API key. */
  readonly key: string;
  /** The owner's account. */
  readonly accountId: string;
  /** Closes the server and removes its folder. */
  close(): Promise<void>;
}

/** What a benchmark changes of {@link startBenchServer}'s defaults. */
export interface BenchServerOptions {
  /** The owner's API key (default: a random one). */
  readonly key?: string;
  /** Configuration beside the defaults (tiny seed, silent logs, no key file). */
  readonly config?: Partial<ConfigInput>;
  /** What `createServer` takes beside the configuration (rate limits, the monitors' engine, ...). */
  readonly deps?: CreateServerDeps;
}

/** Builds a {@link BenchServer}; `name` names its temporary folder (`xsvc-<name>-…`). */
export async function startBenchServer(name: string, options: BenchServerOptions = {}): Promise<BenchServer> {
  const key = options.key ?? `svc_${randomBytes(32).toString('hex')}`;
  const dir = mkdtempSync(join(tmpdir(), `xsvc-${name}-`));
  const config = parseConfig({
    databaseUrl: join(dir, 'bench.db'),
    seedSize: 'tiny',
    logLevel: 'silent',
    keyFile: '',
    bootstrapApiKey: key,
    ...options.config,
  });
  const server = await createServer(config, options.deps);
  const { accountId } = await bootstrapOwner(server.services.database, config, Date.now());
  return {
    server,
    key,
    accountId,
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
