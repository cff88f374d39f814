/**
 * CPU time read from Linux's /proc, for benchmarks that explain what limited them: the whole machine's busy
 * time (`/proc/stat`) and the CPU time of given processes (`/proc/<pid>/stat`, such as Postgres backends).
 * Elsewhere (no /proc) every figure reads as unknown.
 */
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's counters (USER_HZ: 100 on Linux). */
const TICKS = 100;

/** The machine's CPU time so far, in seconds summed over cores (undefined without /proc). */
export function machineCpu(): { busy: number; total: number } | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const f = line.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is counted in user already).
    const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
    const idle = (f[3] ?? 0) + (f[4] ?? 0);
    return { busy: (total - idle) / TICKS, total: total / TICKS };
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) each of `pids` has used so far; processes that are gone are left out. */
export function processesCpu(pids: Iterable<number>): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces, in parentheses): state is field 3, utime 14.
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(pid, (Number(f[11]) + Number(f[12])) / TICKS);
    } catch {
      // gone, or not readable
    }
  }
  return out;
}

/** CPU seconds used between two {@link processesCpu} readings (a process born in between counts from 0). */
export function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, s] of after) sum += s - (before.get(pid) ?? 0);
  return sum;
}
