import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, childSetup, exited, requireBuiltServer } from './child-server.js';

/** Whether util-linux `script` is here to give the server a terminal. */
const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

/**
 * Runs the built server until its start-up report is out (`until` matches), then stops it; its output.
 * With `tty`, under `script`, so that standard output and error are a terminal as in `pnpm start`.
 */
async function startOutput(
  env: Record<string, string>,
  until: RegExp,
  tty: boolean,
  then?: { act: (out: string) => Promise<unknown>; until: RegExp },
): Promise<string> {
  requireBuiltServer();
  const command = tty ? 'script' : process.execPath;
  const args = tty ? ['-qfec', `stty cols 120; exec ${process.execPath} ${BIN}`, '/dev/null'] : [BIN];
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  const done = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start-up report:\n${out}`)), 60_000);
    const read = (c: Buffer) => {
      out += c.toString();
      if (until.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', () => {
      clearTimeout(timer);
      if (!until.test(out)) reject(new Error(`the server exited:\n${out}`));
    });
  });
  try {
    await done;
    if (then) {
      await then.act(out);
      const started = Date.now();
      while (!then.until.test(out)) {
        if (Date.now() - started > 30_000) throw new Error(`not seen ${then.until}:\n${out}`);
        await new Promise((r) => child.stdout.once('data', r));
      }
    }
  } finally {
    child.kill('SIGTERM');
    await exited(child);
  }
  return out;
}

describe('what xsvc-server says at start', () => {
  it('without a terminal: JSON records of the seeding and of where everything is', async () => {
    const setup = childSetup({ XSVC_BOOTSTRAP_API_KEY: '', LOG_LEVEL: 'error' });
    try {
      const out = await startOutput(setup.env, /listening on http/, false);
      const records = out
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, string>);
      expect(records.map((r) => r.msg)).toEqual([
        'seeding the simulated network (first start only)',
        'seeded the simulated network',
        expect.stringMatching(/^xsvc server listening on http:\/\/127\.0\.0\.1:\d+$/),
      ]);
      const ready = records[2] as Record<string, string>;
      expect(ready.dashboard).toBe(`${ready.url}/dashboard`);
      expect(ready.docs).toBe(`${ready.url}/docs`);
      expect(ready.keyFile).toBe(setup.env.XSVC_KEY_FILE);
      expect(ready.apiKey).toMatch(/^svc_[0-9a-f]{64}$/);
      expect(ready.curl).toContain(`$(cat ${setup.env.XSVC_KEY_FILE})`);
      // The sign-in link opens the dashboard as the owner, once (the server was stopped: checked in-process
      // by owner-sign-in.test.ts); here, that it points at this server's callback.
      expect(ready.signInUrl).toMatch(
        new RegExp(`^${ready.url}/auth/magic-link/callback\\?token=[\\w-]+&next=%2Fdashboard$`),
      );
    } finally {
      setup.remove();
    }
  });

  it.skipIf(!hasScript)(
    'on a terminal: a progress bar, then the banner and readable request lines',
    async () => {
      const setup = childSetup({ XSVC_BOOTSTRAP_API_KEY: '', LOG_LEVEL: 'info', NO_COLOR: '1' });
      try {
        const out = await startOutput(setup.env, /Ctrl\+C stops the server/, true, {
          act: (text) => fetch(`${/URL +(http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1]}/health`),
          until: /GET \/health 200 \d+\.\d ms/,
        });
        expect(out).toMatch(/\rSeeding the simulated network \[#+\] 100% {2}done +\d+\.\d s/);
        expect(out).toMatch(/URL +http:\/\/127\.0\.0\.1:\d+/);
        expect(out).toMatch(/Dashboard +http:\/\/127\.0\.0\.1:\d+\/auth\/magic-link\/callback\?token=/);
        expect(out).toMatch(/Docs +http:\/\/127\.0\.0\.1:\d+\/docs/);
        expect(out).toContain(`API key    in ${setup.env.XSVC_KEY_FILE}`);
        expect(out).toMatch(/svc_[0-9a-f]{64}/);
        expect(out).toContain('curl -s -H "x-api-key: $(cat ');
        expect(out).toMatch(/\[\d\d:\d\d:\d\d\] INFO: GET \/health 200 \d+\.\d ms/);
        expect(out).not.toContain('{"level"');
        expect(out).not.toContain('\u001b[1m');
      } finally {
        setup.remove();
      }
    },
  );
});
