import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliOptions, cli, tempConfigHome } from './helpers.js';
import { simControl, startLocalServer } from './local-server.js';

/**
 * The commands of the features the self-hosted server serves beyond reads and monitors (draws,
 * extractions, composition, connected accounts and writes), run against a real `@xsvc/server` on a
 * loopback port: the CLI, the SDK and the server agree on the wire, not only with the mocks.
 */
const KEY = `svc_${'d1'.repeat(32)}`;
let base = '';
let close: () => Promise<void> = async () => {};
const home = tempConfigHome();
const out = mkdtempSync(join(tmpdir(), 'xsvc-e2e-'));
const opts = (): CliOptions => ({
  configHome: home,
  env: { XSVC_API_KEY: KEY, XSVC_BASE_URL: base },
  interactive: 'real',
});

/** Drives the simulated platform's control endpoints as the owner. */
const sim = (path: string, body: unknown) => simControl(base, KEY, path, body);

beforeAll(async () => {
  const server = await startLocalServer(KEY);
  base = server.base;
  close = () => server.close();
});
afterAll(() => close());

describe('server features from the CLI, against a local server', () => {
  it('runs a giveaway draw on a simulated conversation and exports its winners', async () => {
    const giveaway = await sim('/sim/tweets', { author: 'jack', text: 'Reply to win!' });
    for (const author of ['xsvc_demo', 'newsroom']) {
      await sim('/sim/tweets', { author, text: 'count me in', inReplyToId: giveaway.id });
    }
    const url = `https://x.com/jack/status/${giveaway.id}`;
    const draw = await cli(['draws', 'run', url, '--winner-count', '2', '--json'], opts());
    expect(draw.code, draw.stderr).toBe(0);
    const result = draw.json<{ id: string; winners: { authorUsername: string }[] }>();
    expect(result.winners.map((w) => w.authorUsername.toLowerCase()).sort()).toEqual([
      'newsroom',
      'xsvc_demo',
    ]);
    const file = join(out, 'winners.csv');
    const exported = await cli(['draws', 'export', result.id, '--format', 'csv', '--output', file], opts());
    expect(exported.code, exported.stderr).toBe(0);
    expect(readFileSync(file, 'utf8').toLowerCase()).toContain('xsvc_demo');
  });

  it('runs an extraction to completion and saves it as a spreadsheet', async () => {
    const file = join(out, 'followers.xlsx');
    const run = await cli(
      [
        'extractions',
        'run',
        'follower_explorer',
        '--target-username',
        'jack',
        '--results-limit',
        '5',
        '--export',
        file,
      ],
      opts(),
    );
    expect(run.code, run.stderr).toBe(0);
    // An XLSX file is a ZIP archive.
    expect(readFileSync(file).subarray(0, 2).toString('latin1')).toBe('PK');
    const list = await cli(['extractions', 'list', '--json'], opts());
    expect(
      list.json<{ extractions: { status: string; totalResults: number }[] }>().extractions[0],
    ).toMatchObject({
      status: 'completed',
      totalResults: 5,
    });
  });

  it('scores a draft and analyzes a writing style', async () => {
    const score = await cli(
      ['compose', 'run', '--step', 'score', '--draft', 'What is the best way to learn Rust?', '--json'],
      opts(),
    );
    expect(score.code, score.stderr).toBe(0);
    expect(score.json()).toHaveProperty('nextStep');
    const style = await cli(['styles', 'analyze', '--username', 'jack', '--json'], opts());
    expect(style.code, style.stderr).toBe(0);
    expect(style.json()).toMatchObject({ xUsername: 'jack' });
  });

  it('connects a simulated account and posts through it; the post is readable', async () => {
    const connect = await cli(
      ['x-accounts', 'connect', '--username', 'xsvc_demo', '--email', 'demo@example.com', '--json'],
      // Secrets come from the environment (or stdin, or a hidden prompt), never from argv.
      {
        ...opts(),
        env: { ...opts().env, XSVC_PASSWORD: 'sim-password', XSVC_TOTP_SECRET: 'JBSWY3DPEHPK3PXP' },
      },
    );
    expect(connect.code, connect.stderr).toBe(0);
    const posted = await cli(
      ['tweets', 'create', '--account', 'xsvc_demo', '--text', 'hello from the CLI', '--json'],
      opts(),
    );
    expect(posted.code, posted.stderr).toBe(0);
    const action = posted.json<{ status: string; terminal: boolean; tweetId?: string }>();
    expect(action).toMatchObject({ status: 'success', terminal: true });
    const tweetId = action.tweetId;
    expect(tweetId).toBeTruthy();
    const read = await cli(['tweets', 'get', String(tweetId), '--json'], opts());
    expect(read.json<{ tweet: { text: string } }>().tweet.text).toBe('hello from the CLI');
  });
});
