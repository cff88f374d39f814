import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { schemas } from '@xsvc/sdk/contract';
import { describe, expect, it } from 'vitest';
import { renderContractOptions } from '../../scripts/contract-options.js';
import { interactiveCommands } from '../../src/interactive/index.js';
import { flagsFromSchema } from '../../src/interactive/shared/contract-flags.js';
import { flagOf } from '../../src/interactive/shared/options.js';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src/interactive');

/** The bare packages a module loads at start (static, non-type imports), following relative imports. */
function eagerPackages(file: string, seen = new Set<string>()): Set<string> {
  const packages = new Set<string>();
  if (seen.has(file)) return packages;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  for (const m of source.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)';/gms)) {
    const spec = m[1]!;
    if (!spec.startsWith('.')) {
      packages.add(spec);
      continue;
    }
    const base = resolve(dirname(file), spec).replace(/\.js$/, '');
    const next = [`${base}.ts`, `${base}.tsx`].find((f) => {
      try {
        readFileSync(f);
        return true;
      } catch {
        return false;
      }
    });
    if (next) for (const p of eagerPackages(next, seen)) packages.add(p);
  }
  return packages;
}

describe('the interactive command table', () => {
  it('loads no package at start: neither ink and react, nor the contract', () => {
    const packages = eagerPackages(join(SRC, 'index.ts'));
    expect([...packages]).toEqual([]);
    // The walk does see ink where it is imported: the check cannot pass vacuously.
    expect(eagerPackages(join(SRC, 'monitors-watch.tsx')).has('ink')).toBe(true);
  });

  it('names eight commands whose runners load', async () => {
    expect(interactiveCommands.map((c) => c.name)).toEqual([
      'monitors watch',
      'extractions run',
      'draws run',
      'draws verify',
      'compose',
      'webhooks listen',
      'webhooks trigger',
      'server start',
    ]);
    for (const spec of interactiveCommands) {
      const mod = await spec.load();
      expect(typeof mod.run, spec.name).toBe('function');
    }
  });

  it('gives every option a flag matching its key, once', () => {
    for (const spec of interactiveCommands) {
      const keys = [...spec.options.map((o) => o.key), ...spec.arguments.map((a) => a.key)];
      expect(new Set(keys).size, spec.name).toBe(keys.length);
      for (const o of spec.options) {
        expect(o.flag.split(' ')[0], `${spec.name} ${o.key}`).toBe(flagOf(o.key));
        expect(o.description.length, `${spec.name} ${o.key}`).toBeGreaterThan(0);
        expect(o.flag.includes('<'), `${spec.name} ${o.flag}`).toBe(o.type !== 'boolean');
      }
    }
  });
});

describe('flags generated from the contract', () => {
  it('are up to date in contract-options.generated.ts', () => {
    const file = join(SRC, 'contract-options.generated.ts');
    expect(readFileSync(file, 'utf8'), 'stale: run `pnpm generate` and commit the result').toBe(
      renderContractOptions(),
    );
  });

  it('cover every body field with its type, choices and description', () => {
    const flags = flagsFromSchema(schemas.ExtractionRequestSchema, ['toolType']);
    const byKey = new Map(flags.map((f) => [f.key, f]));
    expect(byKey.has('toolType')).toBe(false);
    expect(byKey.size).toBe(Object.keys(schemas.ExtractionRequestSchema.shape).length - 1);
    expect(byKey.get('targetUsername')).toMatchObject({
      flag: '--target-username <target-username>',
      type: 'string',
    });
    expect(byKey.get('targetUsername')!.description).toContain('Account to read');
    expect(byKey.get('resultsLimit')).toMatchObject({ type: 'number' });
    expect(byKey.get('verifiedOnly')).toMatchObject({ flag: '--verified-only', type: 'boolean' });
    expect(byKey.get('mediaType')!.choices).toEqual(['images', 'videos', 'gifs', 'media']);
    const draw = new Map(flagsFromSchema(schemas.DrawRequestSchema, ['tweetUrl']).map((f) => [f.key, f]));
    expect(draw.get('requiredHashtags')).toMatchObject({
      flag: '--required-hashtags <required-hashtags...>',
      type: 'string[]',
    });
    expect(draw.get('winnerCount')).toMatchObject({ type: 'number' });
  });
});
