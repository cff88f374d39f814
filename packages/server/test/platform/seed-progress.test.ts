import { describe, expect, it } from 'vitest';
import type { SeedProgress } from '../../src/platform/simulated/index.js';
import { seedNetwork } from '../../src/platform/simulated/index.js';
import { SeedProgressMeter } from '../../src/platform/simulated/seed-progress.js';
import { openTestDatabase } from './engines.js';
import { NOW } from './network.js';

describe('SeedProgressMeter', () => {
  it('turns steps, cells and indexes into one fraction that never goes back', () => {
    const heard: SeedProgress[] = [];
    const meter = new SeedProgressMeter((p) => heard.push(p));
    meter.generated('users', 1);
    meter.generated('tweets', 0.5);
    meter.generated('tweets', 0.25); // late news of an earlier point: ignored
    meter.generated('rows', 1);
    meter.willWrite(1_000);
    meter.wrote(500);
    meter.wrote(500);
    meter.indexed(1, 2);
    meter.indexed(2, 2);
    meter.done();
    const fractions = heard.map((p) => p.fraction);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    expect(heard.map((p) => p.phase)).toEqual([
      'generate',
      'generate',
      'generate',
      'write',
      'write',
      'index',
      'index',
      'done',
    ]);
    // Generation ends at its share; writing every cell ends at the write share; the commit is the rest.
    expect(heard[2]?.fraction).toBeCloseTo(0.6);
    expect(heard[4]?.fraction).toBeCloseTo(0.8);
    expect(heard.at(-1)).toEqual({ phase: 'done', fraction: 1 });
  });

  it('stays quiet for moves smaller than a thousandth', () => {
    const heard: number[] = [];
    const meter = new SeedProgressMeter((p) => heard.push(p.fraction));
    meter.willWrite(1_000_000);
    for (let i = 0; i < 1_000; i++) meter.wrote(1);
    expect(heard.length).toBeLessThan(5);
  });
});

describe('seedNetwork progress', () => {
  it('reports every phase in order up to 1, and nothing when the database is already seeded', async () => {
    const { db, close } = await openTestDatabase('sqlite');
    try {
      const heard: SeedProgress[] = [];
      await seedNetwork(db.db, { size: 'tiny', seed: 'progress', now: NOW }, (p) => heard.push(p));
      const phases = [...new Set(heard.map((p) => p.phase))];
      expect(phases).toEqual(['generate', 'write', 'index', 'done']);
      const fractions = heard.map((p) => p.fraction);
      expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
      expect(heard.length).toBeGreaterThan(10);
      expect(heard[0]).toEqual({ phase: 'generate', fraction: 0 });
      expect(heard.at(-1)).toEqual({ phase: 'done', fraction: 1 });
      const again: SeedProgress[] = [];
      const report = await seedNetwork(db.db, { size: 'tiny', seed: 'progress', now: NOW }, (p) =>
        again.push(p),
      );
      expect(report.skipped).toBe(true);
      expect(again).toEqual([]);
    } finally {
      await close();
    }
  });
});
