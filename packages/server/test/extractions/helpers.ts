import { createServer, platformFor } from '../../src/app/server.js';
import { ManualClock } from '../../src/core/clock.js';
import { type ConfigInput, parseConfig } from '../../src/core/config.js';
import type { Db } from '../../src/core/db/database.js';
import type { Platform } from '../../src/core/platform/platform.js';
import type { ExtractionRunner, ExtractionRunnerOptions } from '../../src/features/extractions/runner.js';
import { extractionRunner } from '../../src/features/extractions/runtime.js';
import { asTestServer, type Engine, type TestServer, testDatabase } from '../helpers/server.js';

/** A test server with its account id and extraction runner. */
export interface FeatureServer extends TestServer {
  accountId: string;
  runner: ExtractionRunner;
}

/** How {@link startServer} builds a server. */
export interface StartOptions {
  extractions?: ExtractionRunnerOptions;
  /** Replaces platform methods (a failing or stalling read, a read that spends credits meanwhile). */
  platform?: (real: Platform, server: () => FeatureServer) => Partial<Platform>;
  /** Reuse this database (a restart); it is then not dropped when the server closes. */
  database?: Db;
  config?: Partial<ConfigInput>;
  clock?: ManualClock;
}

/**
 * A full server (every feature) on a tiny simulated network, responses validated against the contract,
 * a manual clock, the owner's key; its database is dropped on close unless it was given.
 */
export async function startServer(engine: Engine, options: StartOptions = {}): Promise<FeatureServer> {
  const clock = options.clock ?? new ManualClock();
  const fresh = options.database ? undefined : await testDatabase(engine);
  const database = options.database ?? (fresh as { database: Db }).database;
  const cfg = parseConfig({ logLevel: 'silent', seedSize: 'tiny', keyFile: '', ...options.config });
  let self: FeatureServer | undefined;
  const server = await createServer(cfg, {
    database,
    clock,
    validateResponses: true,
    ...(options.extractions && { extractions: options.extractions }),
    platform: async (services) => {
      const real = await platformFor(cfg, services);
      const overrides = options.platform?.(real, () => self as FeatureServer);
      if (!overrides) return real;
      return new Proxy(real, {
        get: (target, prop, receiver) =>
          prop in overrides ? overrides[prop as keyof Platform] : Reflect.get(target, prop, receiver),
      });
    },
  });
  const t = await asTestServer(server, cfg, clock, fresh?.drop ?? (async () => undefined));
  self = { ...t, runner: extractionRunner(database) };
  return self;
}

/** Sets the owner's balance to `credits` (through the ledger, as any spend would). */
export async function setBalance(t: FeatureServer, credits: bigint): Promise<void> {
  const { credits: ledger } = t.server.services;
  const now = await ledger.balance(t.accountId);
  if (now > credits) await ledger.charge(t.accountId, 'test', Number(now - credits), 1);
  else if (now < credits) await ledger.grant(t.accountId, credits - now, 'test');
}

/** Credits the ledger shows spent by `operation` (the sum of its rows). */
export async function spentOn(t: FeatureServer, operation: string): Promise<number> {
  const rows = await t.server.services.database.db
    .selectFrom('credit_ledger')
    .select(['delta'])
    .where('account_id', '=', t.accountId)
    .where('operation', 'like', `${operation}%`)
    .execute();
  return -rows.reduce((sum, r) => sum + Number(r.delta), 0);
}
