import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliOptions, cli, tempConfigHome } from './helpers.js';
import { simControl, startLocalServer } from './local-server.js';

/**
 * `xsvc draws verify <id>` against a real `@xsvc/server` on a loopback port: a draw re-runs to its own
 * winners (exit 0); an entries export changed after the draw is refuted (exit 1); a draw committed in
 * advance (`draws commit`, then `draws run --commitment-id --organiser-entropy`) verifies against the
 * published commitment and is refuted against another; a file that is not an entries export is a usage
 * error (exit 2).
 */
const KEY = `svc_${'d2'.repeat(32)}`;
let base = '';
let close: () => Promise<void> = async () => {};
const home = tempConfigHome();
const out = mkdtempSync(join(tmpdir(), 'xsvc-verify-'));
const opts = (): CliOptions => ({
  configHome: home,
  env: { XSVC_API_KEY: KEY, XSVC_BASE_URL: base },
  interactive: 'real',
});

/** Drives the simulated platform's control endpoints as the owner. */
const sim = (path: string, body: unknown) => simControl(base, KEY, path, body);

let drawId = '';
let giveawayId = '';

beforeAll(async () => {
  const server = await startLocalServer(KEY);
  base = server.base;
  close = () => server.close();
  const giveaway = await sim('/sim/tweets', { author: 'jack', text: 'Reply to win! 🎉' });
  giveawayId = giveaway.id;
  for (const author of ['xsvc_demo', 'newsroom', 'jack', 'xsvc_demo']) {
    await sim('/sim/tweets', { author, text: 'count me in', inReplyToId: giveaway.id });
  }
  const draw = await cli(
    ['draws', 'run', `https://x.com/jack/status/${giveaway.id}`, '--winner-count', '1', '--json'],
    opts(),
  );
  expect(draw.code, draw.stderr).toBe(0);
  drawId = draw.json<{ id: string }>().id;
});
afterAll(() => close());

describe('xsvc draws verify', () => {
  it('confirms a draw from its record and its entries export (exit 0)', async () => {
    const r = await cli(['draws', 'verify', drawId], opts());
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.map((l) => l.split('\t').slice(0, 2).join(' '))).toEqual([
      'seed ok',
      'entries ok',
      'filters ok',
      'counts ok',
      'winners ok',
      'export ok',
      `verified draw ${drawId}: the winners follow from the committed seed and the entries`,
    ]);
    const json = await cli(['draws', 'verify', drawId, '--json'], opts());
    expect(json.code).toBe(0);
    expect(json.json<{ ok: boolean; expected: unknown[] }>()).toMatchObject({ ok: true });
  });

  it('refutes an entries export changed after the draw (exit 1)', async () => {
    const saved = join(out, 'entries.json');
    const exported = await cli(
      ['draws', 'export', drawId, '--type', 'entries', '--format', 'json', '--output', saved],
      opts(),
    );
    expect(exported.code, exported.stderr).toBe(0);
    expect((await cli(['draws', 'verify', drawId, '--entries', saved], opts())).code).toBe(0);
    // The giveaway author's own reply, excluded by the rules, is let in afterwards.
    const entries = JSON.parse(readFileSync(saved, 'utf8')) as { reason?: string; valid: boolean }[];
    const excluded = entries.find((e) => e.reason);
    expect(excluded).toBeDefined();
    if (excluded) {
      excluded.valid = true;
      delete excluded.reason;
    }
    const tampered = join(out, 'tampered.json');
    writeFileSync(tampered, JSON.stringify(entries));
    const r = await cli(['draws', 'verify', drawId, '--entries', tampered], opts());
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^entries\tFAIL\t/m);
    expect(r.stdout).toContain(`refuted\tdraw ${drawId}`);
  });

  it('runs a draw committed in advance and checks it against the published commitment', async () => {
    const entropy = 'organiser entropy 42';
    const entropyHash = createHash('sha256').update(entropy).digest('hex');
    const commit = await cli(['draws', 'commit', '--entropy-hash', entropyHash, '--json'], opts());
    expect(commit.code, commit.stderr).toBe(0);
    const c = commit.json<{ id: string; seedHash: string; entropyHash: string }>();
    expect(c).toMatchObject({ entropyHash, seedHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const run = await cli(
      [
        'draws',
        'run',
        `https://x.com/jack/status/${giveawayId}`,
        '--commitment-id',
        c.id,
        '--organiser-entropy',
        entropy,
        '--json',
      ],
      opts(),
    );
    expect(run.code, run.stderr).toBe(0);
    const id = run.json<{ id: string }>().id;
    const ok = await cli(
      ['draws', 'verify', id, '--commitment', c.id, '--seed-hash', c.seedHash, '--entropy-hash', entropyHash],
      opts(),
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect(
      ok.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t').slice(0, 2).join(' ')),
    ).toEqual([
      'published ok',
      'seed ok',
      'entropy ok',
      'entries ok',
      'filters ok',
      'counts ok',
      'winners ok',
      'export ok',
      `verified draw ${id}: the winners follow from the committed seed and the entries`,
    ]);
    // Another published seed hash: refuted (exit 1); the earlier, uncommitted draw did not use this one.
    const other = await cli(['draws', 'verify', id, '--seed-hash', 'a'.repeat(64)], opts());
    expect(other.code).toBe(1);
    expect(other.stdout).toMatch(/^published\tFAIL\t/m);
    expect((await cli(['draws', 'verify', drawId, '--commitment', c.id], opts())).code).toBe(1);
    const bad = await cli(['draws', 'verify', id, '--seed-hash', 'xyz'], opts());
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--seed-hash takes a SHA-256 in hex');
  });

  it('answers a file that is not an entries export with a usage error (exit 2)', async () => {
    const bad = join(out, 'bad.json');
    writeFileSync(bad, JSON.stringify({ not: 'entries' }));
    const r = await cli(['draws', 'verify', drawId, '--entries', bad], opts());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is not a JSON entries export');
  });
});
