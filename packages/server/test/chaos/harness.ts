import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LAST_RESORT_MARKER } from '../../src/app/last-resort.js';
import { type Child, type ChildSetup, startChild } from '../hardening/child-server.js';
import type { NetFaults } from './net-faults.mjs';
import { NET_FAULTS_MARKER } from './net-faults.mjs';

/**
 * The chaos suite's harness: the built server as a child process in a network made on this machine (the
 * `net-faults` preload), and the table of what was tried and what held.
 */

/**
 * How big a run is: `XSVC_CHAOS_ROUNDS` (default 1, the bounded run inside `pnpm test`; `pnpm test:chaos`
 * sets more). Each round is one more batch of real events and one more kill and restart.
 */
export const CHAOS_ROUNDS = Math.max(1, Math.floor(Number(process.env.XSVC_CHAOS_ROUNDS ?? '1')) || 1);

/** The preload that installs the faults in the child (`node --import`). */
export const NET_FAULTS_PRELOAD = fileURLToPath(new URL('./net-faults-preload.mjs', import.meta.url));

/** A child server in a chaos network, whose network can be changed while it runs. */
export interface ChaosNetwork {
  /** The file the preload reads at each lookup and connection. */
  readonly file: string;
  /** Replaces the network (the next lookup and connection see it). */
  set(faults: NetFaults): void;
}

/** A network file for `setup`, with the variable that points the preload at it added to `setup.env`. */
export function chaosNetwork(setup: ChildSetup, faults: NetFaults): ChaosNetwork {
  const file = join(setup.dir, 'chaos-net.json');
  const set = (f: NetFaults) => writeFileSync(file, JSON.stringify(f));
  set(faults);
  setup.env.XSVC_CHAOS_NET_FILE = file;
  return { file, set };
}

/**
 * Starts the built server with the preload; fails unless the preload said it installed the faults (a fault
 * test must never run against the real network) or if the server exits.
 */
export async function startChaosServer(env: Record<string, string>): Promise<Child> {
  const child = await startChild(env, 30_000, ['--import', NET_FAULTS_PRELOAD]);
  if (!child.stderr().includes(NET_FAULTS_MARKER)) {
    child.child.kill('SIGKILL');
    throw new Error(`the chaos preload did not install the network faults:\n${child.stderr()}`);
  }
  return child;
}

/** True while the child runs. */
export function alive(c: Child): boolean {
  return c.child.exitCode === null && c.child.signalCode === null;
}

/** What the last-resort handler wrote on the child's stderr (empty when it never fired, as it must). */
export function lastResortLines(c: Child): string[] {
  return c
    .stderr()
    .split('\n')
    .filter((line) => line.includes(LAST_RESORT_MARKER));
}

/** One line of the report: a fault, what was done with it, and what held. */
export interface ChaosRow {
  readonly fault: string;
  readonly tried: string;
  readonly held: string;
}

/** The table printed at the end of a chaos file. */
export class ChaosReport {
  readonly rows: ChaosRow[] = [];

  constructor(readonly title: string) {}

  add(fault: string, tried: string, held: string): void {
    this.rows.push({ fault, tried, held });
  }

  /** The table as text, columns padded. */
  format(): string {
    const header: ChaosRow = { fault: 'fault', tried: 'tried', held: 'held' };
    const all = [header, ...this.rows];
    const width = (k: keyof ChaosRow) => Math.max(...all.map((r) => r[k].length));
    const [wf, wt] = [width('fault'), width('tried')];
    const line = (r: ChaosRow) => `  ${r.fault.padEnd(wf)}  ${r.tried.padEnd(wt)}  ${r.held}`;
    return [`${this.title} (rounds: ${CHAOS_ROUNDS})`, ...all.map(line)].join('\n');
  }

  /** Prints the table (vitest shows it with the file's output). */
  print(): void {
    console.log(this.format());
  }
}

/** Polls `probe` every `everyMs` until it answers truthy or `ms` passed; answers its last value. */
export async function waitFor<T>(probe: () => Promise<T>, ms: number, everyMs = 50): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v || Date.now() >= until) return v;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
