/**
 * Export writers at size, each beside a kept library writing the same rows in the same run, each run in
 * a fresh process whose peak resident memory (max RSS) is its own:
 * - 100,000 extraction rows per format (csv, json, md, md-document, txt, xlsx); pdf 5,000 rows;
 * - peers: csv-stringify (goal <= 1.5x its time), exceljs's streaming writer (goal: faster, and <= 2 s),
 *   pdfkit setting the same cells in one font (goal <= 2x its time); JSON.stringify per row as the floor
 *   of the formats no library writes;
 * - goal: peak memory <= 150 MB for every format;
 * - goal: every file byte-identical to the one recorded in exports-digests.json (SHA-256 per format and row
 *   count), so that making a writer faster cannot change what it writes. `XSVC_BENCH_EXPORT_RECORD=1`
 *   records the digests of this run instead (only after a deliberate change of an export's bytes).
 * The child (exports-child.ts) is bundled with esbuild and run by plain node, so that neither tsx nor the
 * rest of the server weighs in its memory. `XSVC_BENCH_EXPORT_ROWS` scales the row counts (smoke runs),
 * `XSVC_BENCH_EXPORT_RUNS` sets the runs per writer (3), `XSVC_BENCH_EXPORT_FORMATS=csv,xlsx` picks formats.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { goal, median, table } from './src/stats.js';

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, 'node_modules', '.cache', 'xsvc-exports');
mkdirSync(outDir, { recursive: true });
const child = join(outDir, 'exports-child.mjs');
await build({
  entryPoints: [join(here, 'exports-child.ts')],
  outfile: child,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Libraries that read their own data files stay packages; the bench's copies are the same versions.
  external: ['pdfkit', 'exceljs', 'csv-stringify'],
  // bidi-js is CommonJS: give the ESM bundle a `require`.
  banner: {
    js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
  },
  logLevel: 'warning',
});

const scale = Number(process.env.XSVC_BENCH_EXPORT_ROWS ?? 100_000) / 100_000;
const ROWS = Math.max(1, Math.round(100_000 * scale));
const PDF_ROWS = Math.max(1, Math.round(5_000 * scale));
const RUNS = Number(process.env.XSVC_BENCH_EXPORT_RUNS ?? 3);
const MEMORY_MB = 150;

interface Run {
  ms: number;
  /** CPU time (user + system): steadier than wall time on a busy machine, printed beside it. */
  cpuMs: number;
  bytes: number;
  peakMB: number;
  /** SHA-256 of the file written (the PDF's clock stopped: see exports-child.ts). */
  sha256: string;
}

function once(writer: 'xsvc' | 'peer', format: string, rows: number): Run {
  const r = spawnSync(process.execPath, [child, writer, format, String(rows)], {
    cwd: here,
    encoding: 'utf8',
    // The server's fonts resolve from its own packages.
    env: { ...process.env, NODE_PATH: join(here, '..', 'packages', 'server', 'node_modules') },
  });
  if (r.status !== 0) throw new Error(`${writer} ${format} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop() as string) as Run;
}

/** Median time and largest peak of `RUNS` runs, ours and the peer's alternating. */
function measure(format: string, rows: number): { xsvc: Run; peer: Run } {
  const ours: Run[] = [];
  const theirs: Run[] = [];
  for (let i = 0; i < RUNS; i++) {
    ours.push(once('xsvc', format, rows));
    theirs.push(once('peer', format, rows));
  }
  const sum = (runs: Run[]): Run => ({
    ms: median(runs.map((r) => r.ms)),
    cpuMs: median(runs.map((r) => r.cpuMs)),
    bytes: runs[0]?.bytes ?? 0,
    sha256: runs.every((r) => r.sha256 === runs[0]?.sha256) ? (runs[0]?.sha256 ?? '') : 'varies',
    peakMB: Math.max(...runs.map((r) => r.peakMB)),
  });
  return { xsvc: sum(ours), peer: sum(theirs) };
}

const PEERS: Record<string, string> = {
  csv: 'csv-stringify',
  xlsx: 'exceljs stream',
  pdf: 'pdfkit, one font',
};
const rowsOut: (string | number)[][] = [
  [
    'format',
    'rows',
    'xsvc s',
    'peer',
    'peer s',
    'ratio',
    'CPU ratio',
    'xsvc MB',
    'peer MB',
    'xsvc peak RSS MB',
    'peer peak RSS MB',
  ],
];
const results = new Map<string, { xsvc: Run; peer: Run }>();
const FORMATS = ['csv', 'json', 'md', 'md-document', 'txt', 'xlsx', 'pdf'].filter(
  (f) =>
    !process.env.XSVC_BENCH_EXPORT_FORMATS || process.env.XSVC_BENCH_EXPORT_FORMATS.split(',').includes(f),
);
for (const format of FORMATS) {
  const rows = format === 'pdf' ? PDF_ROWS : ROWS;
  const m = measure(format, rows);
  results.set(format, m);
  rowsOut.push([
    format,
    rows,
    (m.xsvc.ms / 1000).toFixed(2),
    PEERS[format] ?? 'JSON.stringify floor',
    (m.peer.ms / 1000).toFixed(2),
    `${(m.xsvc.ms / m.peer.ms).toFixed(2)}x`,
    `${(m.xsvc.cpuMs / m.peer.cpuMs).toFixed(2)}x`,
    (m.xsvc.bytes / 1e6).toFixed(1),
    (m.peer.bytes / 1e6).toFixed(1),
    m.xsvc.peakMB.toFixed(0),
    m.peer.peakMB.toFixed(0),
  ]);
}
console.log(
  `\nExports: ${ROWS.toLocaleString('en-US')} extraction rows (pdf ${PDF_ROWS.toLocaleString('en-US')}), median of ${RUNS} fresh processes each`,
);
table(rowsOut);

let ok = true;
/** The goal of a time ratio against the peer, when that format was measured. */
function ratioGoal(format: string, label: string, max: number): void {
  const m = results.get(format);
  if (!m) return;
  const ratio = m.xsvc.ms / m.peer.ms;
  ok = goal(label, ratio <= max, `${ratio.toFixed(2)}x`) && ok;
}
ratioGoal('csv', 'csv <= 1.5x csv-stringify', 1.5);
ratioGoal('xlsx', 'xlsx at least as fast as exceljs streaming', 1);
// #30's 1.2 s was set against exceljs's 3.16 s in the issue's run: the same goal as a ratio, which a
// loaded machine slows on both sides alike.
ratioGoal('xlsx', 'xlsx <= 0.38x exceljs streaming (#30: 1.2 s of its 3.16 s)', 0.38);
ratioGoal('md-document', 'md-document <= 2x the JSON.stringify floor', 2);
ratioGoal('pdf', 'pdf <= 1.2x pdfkit', 1.2);
const xlsx = results.get('xlsx');
if (xlsx && ROWS === 100_000)
  ok =
    goal('xlsx 100,000 rows <= 1.2 s', xlsx.xsvc.ms <= 1200, `${(xlsx.xsvc.ms / 1000).toFixed(2)} s`) && ok;
const peak = Math.max(...[...results.values()].map((r) => r.xsvc.peakMB));
ok =
  goal(
    `peak memory <= ${MEMORY_MB} MB in every format`,
    peak <= MEMORY_MB,
    `largest ${peak.toFixed(0)} MB`,
  ) && ok;

const digestsFile = join(here, 'exports-digests.json');
const recorded: Record<string, string> = existsSync(digestsFile)
  ? (JSON.parse(readFileSync(digestsFile, 'utf8')) as Record<string, string>)
  : {};
if (process.env.XSVC_BENCH_EXPORT_RECORD === '1') {
  for (const [format, m] of results)
    recorded[`${format}:${format === 'pdf' ? PDF_ROWS : ROWS}`] = m.xsvc.sha256;
  writeFileSync(digestsFile, `${JSON.stringify(recorded, null, 2)}\n`);
  console.log(`recorded the digests of ${[...results.keys()].join(', ')} in exports-digests.json`);
} else {
  const changed: string[] = [];
  const unknown: string[] = [];
  for (const [format, m] of results) {
    const want = recorded[`${format}:${format === 'pdf' ? PDF_ROWS : ROWS}`];
    if (want === undefined) unknown.push(format);
    else if (want !== m.xsvc.sha256) changed.push(format);
  }
  const checked = results.size - unknown.length;
  ok =
    goal(
      'every export byte-identical to its recorded digest',
      changed.length === 0,
      changed.length
        ? `changed: ${changed.join(', ')}`
        : `${checked} format(s) checked${unknown.length ? `; no digest for ${unknown.join(', ')} at this row count` : ''}`,
    ) && ok;
}
if (!ok) process.exitCode = 1;
