/** Small helpers shared by the benchmarks: medians and table printing. */

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

/** Prints rows as an aligned table. */
export function table(rows: (string | number)[][]): void {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  for (const r of rows) console.log(r.map((c, i) => String(c).padEnd(widths[i]!)).join('  '));
}

/** Prints a goal line: PASS or FAIL with the figures. */
export function goal(label: string, ok: boolean, detail: string): boolean {
  console.log(`GOAL ${ok ? 'PASS' : 'FAIL'}: ${label} (${detail})`);
  return ok;
}
