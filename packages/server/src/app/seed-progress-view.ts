import type { SeedPhase, SeedProgress, SeedProgressListener } from '../platform/simulated/index.js';
import { jsonLine } from './banner.js';
import type { LogFormat, MaybeTerminal } from './logging.js';

/** How the seeding's progress is shown: a redrawn bar, a few plain lines, or JSON records (logs). */
export type ProgressStyle = 'bar' | 'lines' | 'json';

/**
 * The style for where the bin writes: JSON records when the log is JSON (nothing but log lines there);
 * else a bar on a terminal's standard error, or plain lines when it is redirected.
 */
export function progressStyle(format: LogFormat, stderr: MaybeTerminal): ProgressStyle {
  if (format === 'json') return 'json';
  return stderr.isTTY === true ? 'bar' : 'lines';
}

const PHASE_LABEL: Readonly<Record<SeedPhase, string>> = {
  generate: 'generating the network',
  write: 'writing rows',
  index: 'building indexes',
  done: 'done',
};

const TITLE = 'Seeding the simulated network';

/** One frame of the bar, at most `columns` wide: title, bar, percentage, what it is doing, elapsed time. */
export function progressBarLine(progress: SeedProgress, elapsedMs: number, columns = 80): string {
  const percent = `${Math.floor(progress.fraction * 100)}%`.padStart(4);
  const label = PHASE_LABEL[progress.phase].padEnd(LABEL_WIDTH);
  const tail = ` ${percent}  ${label} ${seconds(elapsedMs).padStart(6)}`;
  // The bar's width depends only on the terminal, so it does not jump as the label changes.
  const width = Math.max(10, Math.min(30, columns - TITLE.length - tail.length - 4));
  const filled = Math.round(progress.fraction * width);
  const line = `${TITLE} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}]${tail}`;
  return line.length >= columns ? line.slice(0, Math.max(0, columns - 1)) : line;
}

const LABEL_WIDTH = Math.max(...Object.values(PHASE_LABEL).map((l) => l.length));

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** A progress view: its listener for `seedNetwork`, and `finish` to end the bar's line if one was drawn. */
export interface ProgressView {
  readonly listener: SeedProgressListener;
  finish(): void;
}

/**
 * Shows the seeding's progress on `out` in `style`. The bar is one line redrawn with a carriage return,
 * at most ten times a second: a dependency such as cli-progress (and its types) would do the same line
 * with more options than a single bar needs. Plain lines come at each quarter; JSON records at the start
 * and the end. Nothing at all when the database was already seeded (the listener is never called).
 */
export function seedProgressView(
  style: ProgressStyle,
  out: NodeJS.WritableStream & { columns?: number },
  now: () => number = Date.now,
): ProgressView {
  let started: number | undefined;
  let lastDraw = -Infinity;
  let lastQuarter = -1;
  let drawn = false;
  const listener: SeedProgressListener = (progress) => {
    const t = now();
    started ??= t;
    const elapsed = t - started;
    if (style === 'bar') {
      if (progress.phase !== 'done' && t - lastDraw < 100) return;
      lastDraw = t;
      drawn = true;
      out.write(`\r${progressBarLine(progress, elapsed, out.columns || 80)}\u001b[K`);
      if (progress.phase === 'done') {
        out.write('\n');
        drawn = false;
      }
      return;
    }
    if (style === 'lines') {
      const quarter = Math.floor(progress.fraction * 4);
      if (quarter === lastQuarter) return;
      lastQuarter = quarter;
      const what = progress.phase === 'done' ? `done in ${seconds(elapsed)}` : PHASE_LABEL[progress.phase];
      out.write(`${TITLE} (first start only): ${Math.floor(progress.fraction * 100)}% (${what})\n`);
      return;
    }
    if (progress.fraction === 0)
      out.write(jsonLine({ msg: 'seeding the simulated network (first start only)' }, t));
    else if (progress.phase === 'done')
      out.write(jsonLine({ msg: 'seeded the simulated network', ms: Math.round(elapsed) }, t));
  };
  return {
    listener,
    finish: () => {
      if (drawn) out.write('\n');
      drawn = false;
    },
  };
}

/** The bin's view: JSON records on standard output with JSON logs, else a bar or lines on standard error. */
export function startupProgress(
  format: LogFormat,
  stdout: NodeJS.WritableStream & MaybeTerminal,
  stderr: NodeJS.WritableStream & MaybeTerminal & { columns?: number },
): ProgressView {
  const style = progressStyle(format, stderr);
  return seedProgressView(style, style === 'json' ? stdout : stderr);
}
