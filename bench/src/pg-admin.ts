/**
 * Postgres administration for the benchmarks: scratch databases (created and dropped over a plain connection
 * to the admin database) and a few catalog reads. It uses the `pg` driver the server depends on, resolved
 * from `@xsvc/server`'s own dependencies (the bench package does not depend on a driver of its own).
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';

interface PgClient {
  connect(): Promise<void>;
  query<R>(text: string, params?: unknown[]): Promise<{ rows: R[] }>;
  end(): Promise<void>;
}

const fromBench = createRequire(import.meta.url);
const fromServer = createRequire(fromBench.resolve('@xsvc/server'));
const pg = fromServer('pg') as { Client: new (options: { connectionString: string }) => PgClient };

/** The Postgres the benchmarks use: `XSVC_BENCH_PG_URL`, else the local test server. */
export const PG_URL = process.env.XSVC_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A scratch database and a connection to the admin database beside it. */
export interface ScratchDatabase {
  readonly name: string;
  /** The scratch database's URL (`postgres://…/<name>`). */
  readonly url: string;
  /** Runs a query on the admin connection. */
  query<R>(text: string, params?: unknown[]): Promise<R[]>;
  /** Drops the database (ending its sessions) and closes the admin connection; safe to call twice. */
  drop(): Promise<void>;
}

/** Creates an empty database `xsvc_bench_<prefix>_<random>` on {@link PG_URL}'s server. */
export async function createScratchDatabase(prefix: string): Promise<ScratchDatabase> {
  const name = `xsvc_bench_${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  let dropped: Promise<void> | undefined;
  return {
    name,
    url: url.toString(),
    async query<R>(text: string, params?: unknown[]) {
      return (await admin.query<R>(text, params)).rows;
    },
    drop() {
      dropped ??= (async () => {
        try {
          // A closed pool's connections end a moment after `pool.end()` resolves, with the pool still
          // listening for their errors: ending them by force meanwhile would raise an unhandled error in
          // the process that closed the pool. Wait (a little) for them to go first.
          for (let i = 0; i < 100; i++) {
            const [row] = (
              await admin.query<{ n: string }>(
                'select count(*) as n from pg_stat_activity where datname = $1',
                [name],
              )
            ).rows;
            if (Number(row?.n ?? 0) === 0) break;
            await new Promise((r) => setTimeout(r, 50));
          }
          await admin.query(`drop database if exists ${name} with (force)`);
        } finally {
          await admin.end();
        }
      })();
      return dropped;
    },
  };
}
