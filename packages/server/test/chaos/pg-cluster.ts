import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A private Postgres cluster in a temp dir, on a port of its own, that a test may restart or stop. */
export interface PgCluster {
  /** `postgres://postgres@127.0.0.1:<port>/<database>`. */
  url(database: string): string;
  readonly port: number;
  /** `pg_ctl restart -m fast`: every connection is cut (57P01), the server is away a moment, then back. */
  restart(): Promise<void>;
  /** `pg_ctl stop -m fast` and removes the data directory. */
  remove(): Promise<void>;
  /** The server's log so far. */
  log(): string;
}

/** The newest Debian Postgres binaries' folder (`/usr/lib/postgresql/<major>/bin`), or undefined. */
export function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root)
    .filter((d) => existsSync(join(root, d, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] ? join(root, majors[0], 'bin') : undefined;
}

/** Why a private cluster cannot be started here, or undefined when it can (binaries, root for `runuser`). */
export function clusterUnavailable(): string | undefined {
  if (!postgresBin()) return 'no Postgres binaries under /usr/lib/postgresql/*/bin';
  if (process.getuid?.() !== 0) return 'not root: initdb and pg_ctl run as the postgres user through runuser';
  return undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Runs a Postgres binary as the `postgres` user (initdb refuses root). */
async function asPostgres(bin: string, args: readonly string[]): Promise<void> {
  await run('runuser', ['-u', 'postgres', '--', bin, ...args], { timeout: 60_000 });
}

/**
 * Starts a private cluster: `initdb` (trust auth, no fsync: a test's data need not survive a power cut) in a
 * temp dir owned by `postgres`, then `pg_ctl start` on a free port, listening on 127.0.0.1 only, its socket in
 * the same dir. `databases` are created.
 */
export async function startCluster(databases: readonly string[] = []): Promise<PgCluster> {
  const binDir = postgresBin();
  if (!binDir) throw new Error('no Postgres binaries');
  const dir = mkdtempSync(join(tmpdir(), 'xsvc-pg-'));
  const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
  const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
  chownSync(dir, uid, gid);
  const data = join(dir, 'data');
  const logFile = join(dir, 'server.log');
  const port = await freePort();
  const pgCtl = join(binDir, 'pg_ctl');
  await asPostgres(join(binDir, 'initdb'), [
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'postgres',
    '--no-sync',
    '-E',
    'UTF8',
  ]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const ctl = (args: readonly string[]) =>
    asPostgres(pgCtl, ['-D', data, '-l', logFile, '-w', '-t', '30', ...args]);
  await ctl(['-o', options, 'start']);
  for (const db of databases)
    await asPostgres(join(binDir, 'createdb'), ['-h', dir, '-p', String(port), '-U', 'postgres', db]);
  return {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    restart: () => ctl(['-m', 'fast', '-o', options, 'restart']),
    async remove() {
      if (existsSync(join(data, 'postmaster.pid')))
        await ctl(['-m', 'immediate', 'stop']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
    log: () => (existsSync(logFile) && statSync(logFile).isFile() ? readFileSync(logFile, 'utf8') : ''),
  };
}
