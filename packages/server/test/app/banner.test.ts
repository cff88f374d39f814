import { describe, expect, it } from 'vitest';
import { curlLine, jsonLine, readyRecord, renderBanner, type StartFacts } from '../../src/app/banner.js';
import { progressBarLine, progressStyle, seedProgressView } from '../../src/app/seed-progress-view.js';

const facts: StartFacts = {
  version: '1.2.3',
  address: 'http://127.0.0.1:8787',
  url: 'http://127.0.0.1:8787',
  platform: 'simulated',
  database: 'sqlite',
  key: { file: './.xsvc/owner-api-key' },
  newKey: `svc_${'a'.repeat(64)}`,
  signIn: { url: 'http://127.0.0.1:8787/auth/magic-link/callback?token=t0k&next=%2Fdashboard', expiresAt: 0 },
};

describe('the start-up banner', () => {
  it('says where the server, the dashboard sign-in, the docs and the key are, with a curl line', () => {
    const text = renderBanner(facts, { color: false });
    expect(text).toContain('xsvc server 1.2.3 is ready (platform: simulated, database: sqlite)');
    expect(text).toMatch(/URL +http:\/\/127\.0\.0\.1:8787\n/);
    expect(text).toContain(
      'Dashboard  http://127.0.0.1:8787/auth/magic-link/callback?token=t0k&next=%2Fdashboard',
    );
    expect(text).toContain('works once');
    expect(text).toMatch(/Docs +http:\/\/127\.0\.0\.1:8787\/docs/);
    expect(text).toMatch(/API key +in \.\/\.xsvc\/owner-api-key/);
    expect(text).toContain(`shown once; also written to ./.xsvc/owner-api-key, mode 0600`);
    expect(text).toContain(facts.newKey);
    expect(text).toContain(
      'curl -s -H "x-api-key: $(cat ./.xsvc/owner-api-key)" http://127.0.0.1:8787/api/v1/account',
    );
    expect(text).not.toContain('\u001b[');
    expect(renderBanner(facts, { color: true })).toContain('\u001b[1m');
  });

  it('on a later start: no key to show, the dashboard plain when no link could be made', () => {
    const later = { ...facts, newKey: undefined, signIn: undefined, key: { env: 'XSVC_BOOTSTRAP_API_KEY' } };
    const text = renderBanner(later, { color: false });
    expect(text).not.toContain('shown once');
    expect(text).toContain('Dashboard  http://127.0.0.1:8787/dashboard');
    expect(text).toContain('the one in XSVC_BOOTSTRAP_API_KEY');
    expect(curlLine(later)).toContain('$XSVC_API_KEY');
  });

  it('is one JSON record with the same facts for logs', () => {
    const record = JSON.parse(jsonLine(readyRecord(facts), 5));
    expect(record).toMatchObject({
      level: 30,
      time: 5,
      msg: 'xsvc server listening on http://127.0.0.1:8787',
      url: facts.url,
      dashboard: `${facts.url}/dashboard`,
      docs: `${facts.url}/docs`,
      signInUrl: facts.signIn?.url,
      keyFile: './.xsvc/owner-api-key',
      apiKey: facts.newKey,
      curl: curlLine(facts),
    });
  });
});

/** A stream that keeps what is written. */
function sink(): NodeJS.WritableStream & { text: string; columns?: number } {
  const s = {
    text: '',
    write(chunk: string) {
      s.text += chunk;
      return true;
    },
  };
  return s as unknown as NodeJS.WritableStream & { text: string };
}

describe('the seeding progress', () => {
  it('picks a bar on a terminal, plain lines when redirected, JSON records with JSON logs', () => {
    expect(progressStyle('pretty', { isTTY: true })).toBe('bar');
    expect(progressStyle('pretty', { isTTY: false })).toBe('lines');
    expect(progressStyle('json', { isTTY: true })).toBe('json');
  });

  it('draws a bar that fits the terminal, its width the same from phase to phase', () => {
    for (const columns of [80, 120]) {
      const line = progressBarLine({ phase: 'write', fraction: 0.5 }, 12_300, columns);
      expect(line).toMatch(/^Seeding the simulated network \[#+-+\] {2}50% {2}writing rows +12 s$/);
      expect(line.length).toBeLessThan(columns);
      const other = progressBarLine({ phase: 'generate', fraction: 0.5 }, 1_000, columns);
      expect(other.length).toBe(line.length);
      expect(other.indexOf(']')).toBe(line.indexOf(']'));
    }
    expect(progressBarLine({ phase: 'generate', fraction: 0 }, 0, 40).length).toBeLessThan(40);
  });

  it('redraws the bar in place at most ten times a second and ends its line', () => {
    const out = sink();
    let t = 0;
    const view = seedProgressView('bar', out, () => t);
    for (let i = 0; i <= 100; i++) {
      t = i * 10;
      view.listener({ phase: i === 100 ? 'done' : 'write', fraction: i / 100 });
    }
    const frames = out.text.split('\r').filter(Boolean);
    expect(frames.length).toBeGreaterThanOrEqual(10);
    expect(frames.length).toBeLessThanOrEqual(12);
    expect(out.text.endsWith('\u001b[K\n')).toBe(true);
    expect(out.text).toMatch(/100% {2}done +1\.0 s\S*\n$/);
  });

  it('writes a line a quarter when redirected, and two records with JSON logs', () => {
    const lines = sink();
    const view = seedProgressView('lines', lines, () => 0);
    for (let i = 0; i <= 20; i++) view.listener({ phase: i === 20 ? 'done' : 'generate', fraction: i / 20 });
    expect(lines.text.trimEnd().split('\n')).toHaveLength(5);
    expect(lines.text).toContain('100% (done in 0.0 s)');
    const json = sink();
    const logs = seedProgressView('json', json, () => 7);
    for (let i = 0; i <= 20; i++) logs.listener({ phase: i === 20 ? 'done' : 'generate', fraction: i / 20 });
    const records = json.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records.map((r) => r.msg)).toEqual([
      'seeding the simulated network (first start only)',
      'seeded the simulated network',
    ]);
  });
});
