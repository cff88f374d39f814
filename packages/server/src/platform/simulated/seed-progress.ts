import { GENERATE_STEPS, type GenerateStep } from './seed/generate.js';

/**
 * What a seeding is doing: generating the network in memory, writing its rows, rebuilding the indexes; `done`
 * once committed.
 */
export type SeedPhase = 'generate' | 'write' | 'index' | 'done';

/** How far a seeding is. */
export interface SeedProgress {
  readonly phase: SeedPhase;
  /** The share of the whole seeding done, 0 to 1; it never goes back. */
  readonly fraction: number;
}

/** Hears a seeding's progress (a start-up progress bar); called often, so it should be cheap. */
export type SeedProgressListener = (progress: SeedProgress) => void;

// Rough shares of the time a default-size seed spends in each phase and generation step, measured on SQLite
// (what is left after the indexes is the commit); they only need to make a bar move about evenly, not to
// predict a finish time. Writing is measured in cells (rows times columns): a tweet row costs more than a like.
const PHASE_SHARE: Readonly<Record<Exclude<SeedPhase, 'done'>, number>> = {
  generate: 0.6,
  write: 0.2,
  index: 0.13,
};
const STEP_SHARE: Readonly<Record<GenerateStep, number>> = {
  users: 0.06,
  follows: 0.04,
  tweets: 0.46,
  likes: 0.07,
  collections: 0.04,
  rows: 0.33,
};

/**
 * Turns the seeder's events (a generation step's fraction, cells written, indexes rebuilt, the commit) into
 * one overall fraction for a listener, never decreasing, and only when it moved by at least a thousandth.
 */
export class SeedProgressMeter {
  private last = -1;
  private written = 0;
  private toWrite = 0;

  constructor(private readonly listener: SeedProgressListener) {}

  /** How many cells (rows times columns) the write phase will write, once the network is generated. */
  willWrite(cells: number): void {
    this.toWrite = cells;
  }

  /** A generation step is `fraction` done. */
  generated(step: GenerateStep, fraction: number): void {
    let before = 0;
    for (const s of GENERATE_STEPS) {
      if (s === step) break;
      before += STEP_SHARE[s];
    }
    this.emit('generate', PHASE_SHARE.generate * (before + STEP_SHARE[step] * fraction));
  }

  /** `cells` more cells were written. */
  wrote(cells: number): void {
    this.written += cells;
    const share = this.toWrite > 0 ? Math.min(1, this.written / this.toWrite) : 1;
    this.emit('write', PHASE_SHARE.generate + PHASE_SHARE.write * share);
  }

  /** `done` of `total` indexes were rebuilt. */
  indexed(done: number, total: number): void {
    const share = total > 0 ? done / total : 1;
    this.emit('index', PHASE_SHARE.generate + PHASE_SHARE.write + PHASE_SHARE.index * share);
  }

  /** The network is committed. */
  done(): void {
    this.emit('done', 1);
  }

  private emit(phase: SeedPhase, fraction: number): void {
    const f = Math.min(1, Math.max(this.last, fraction));
    if (f - this.last < 0.001 && !(f === 1 && this.last < 1)) return;
    this.last = f;
    this.listener({ phase, fraction: f });
  }
}
