import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/** How often the background connection checkpoints the WAL (ms). */
export const CHECKPOINT_INTERVAL_MS = 100;
/**
 * The server's own connection still checkpoints when the WAL reaches this many pages (SQLite's default is
 * 1000). Under a sustained write load the background checkpoint rarely finds the WAL with nothing new, which
 * the WAL needs to start over from its beginning; this bounds its size (40 MiB at 4 KiB pages). By then the
 * background connection has copied nearly every page, so what is left on the event loop is small.
 */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 10_000;

// Plain JavaScript run by the worker (no loader, no TypeScript): one connection, a PASSIVE checkpoint at each
// tick (it never waits for or blocks the server's readers and writer), a final one and a close on 'stop'.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('synchronous = NORMAL');
const checkpoint = () => db.pragma('wal_checkpoint(PASSIVE)');
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  try { checkpoint(); } finally { db.close(); parentPort.close(); }
});
parentPort.postMessage('ready');
`;

/** A running background checkpointer. */
export interface WalCheckpointer {
  /** Resolves once the worker started (its connection is open) or failed to. */
  readonly ready: Promise<void>;
  /** Stops the worker after a last checkpoint; the server's connection goes back to SQLite's default. */
  stop(): Promise<void>;
}

/**
 * Moves WAL checkpoints off the event loop. A checkpoint copies the pages written since the last one into
 * the database file and syncs both files; run by the server's own connection (SQLite's default, every 1000
 * pages) it blocks every request for its duration. Here a worker thread with a connection of its own runs a
 * PASSIVE checkpoint every {@link CHECKPOINT_INTERVAL_MS} (which also bounds how long a commit waits to be
 * synced, under `synchronous = NORMAL`), and the server's connection only checkpoints as a fallback at
 * {@link FALLBACK_AUTOCHECKPOINT_PAGES}. If the worker fails, the server's connection goes back to checkpointing
 * every 1000 pages itself. For a database file only (not `:memory:`).
 */
export function startWalCheckpointer(sqlite: SQLite.Database, file: string): WalCheckpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver, file, intervalMs: CHECKPOINT_INTERVAL_MS },
    execArgv: [],
  });
  worker.unref();
  let running = true;
  const fallBack = () => {
    if (!running) return;
    running = false;
    if (sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
  };
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve) => {
    worker.once('message', () => resolve());
    worker.once('error', () => resolve());
    worker.once('exit', () => resolve());
  });
  worker.on('error', fallBack);
  worker.once('exit', fallBack);
  sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  return {
    ready,
    async stop() {
      await ready;
      fallBack();
      // Hold the event loop until the worker is gone: unref'd, its exit could otherwise come after the loop
      // emptied, leaving this promise (and a caller's top-level await) unsettled.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
