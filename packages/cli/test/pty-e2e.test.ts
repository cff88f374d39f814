import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createMemoryNonceStore, verifyWebhook } from '@xsvc/webhook-verifier';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from './local-server.js';

/**
 * The real `xsvc` binary in a pseudo-terminal (tmux), against a real `@xsvc/server` on the simulated
 * platform: an interactive login, a read, a monitor whose live `monitors watch` view shows a simulated tweet,
 * and `webhooks listen` forwarding to a receiver that verifies every delivery.
 */
const hasTmux = (() => {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const BIN = resolve(import.meta.dirname, '../dist/bin.js');
const KEY = `svc_${randomBytes(32).toString('hex')}`;
const SECRET = randomBytes(32).toString('hex');
const dir = mkdtempSync(join(tmpdir(), 'xsvc-pty-'));
const socket = join(dir, 'tmux.sock');

let base = '';
let stopServer: () => Promise<void> = async () => {};
let receiver: Server | undefined;
let receiverUrl = '';
const verified: Record<string, unknown>[] = [];
const rejected: string[] = [];

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8' });
}

/** Starts a shell in a new tmux window of a fixed size (ink needs columns) and returns its target. */
function shell(name: string): string {
  const env = [
    `XDG_CONFIG_HOME=${join(dir, 'config')}`,
    'XSVC_POLL_INTERVAL_MS=200',
    'XSVC_API_KEY=',
    'XSVC_BASE_URL=',
    'NO_COLOR=1',
  ];
  // A user's terminal, not a CI job (under CI the CLI prints lines instead of live views).
  const command = `env -u CI -u CONTINUOUS_INTEGRATION ${env.join(' ')} bash --norc --noprofile`;
  if (name === 'main') {
    // On a loaded machine tmux's server now and then exits as it starts ("server exited unexpectedly"):
    // start it again rather than fail the test on the terminal, which is not what it tests.
    for (let attempt = 1; ; attempt++) {
      try {
        tmux('new-session', '-d', '-s', 'e2e', '-n', name, '-x', '140', '-y', '45', command);
        break;
      } catch (err) {
        if (attempt >= 3) throw err;
        execFileSync('sleep', ['1']);
      }
    }
  } else tmux('new-window', '-t', 'e2e', '-n', name, command);
  const target = `e2e:${name}`;
  tmux('send-keys', '-t', target, `alias xsvc='node ${BIN}'; PS1='$ '; clear`, 'Enter');
  return target;
}

function type(target: string, text: string): void {
  tmux('send-keys', '-t', target, '-l', text);
  tmux('send-keys', '-t', target, 'Enter');
}

/** Polls the pane until `pattern` shows (60 s at most) and returns the screen. */
async function screenShows(target: string, pattern: RegExp): Promise<string> {
  // Generous: on a loaded CI box a cold start of node + ink can take seconds.
  const deadline = Date.now() + 60_000;
  let screen = '';
  while (Date.now() < deadline) {
    screen = tmux('capture-pane', '-p', '-J', '-S', '-200', '-t', target);
    if (pattern.test(screen)) return screen;
    await new Promise((r) => setTimeout(r, 100));
  }
  const errors = ['watch.err', 'listen.err']
    .map((f) => join(dir, f))
    .filter((f) => existsSync(f))
    .map((f) => `${f}:\n${readFileSync(f, 'utf8')}`);
  throw new Error(`pane ${target} never showed ${pattern}:\n${screen}\n${errors.join('\n')}`);
}

async function sim(method: string, path: string, body: unknown): Promise<{ id: string }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string };
}

beforeAll(async () => {
  if (!hasTmux) return;
  const server = await startLocalServer(KEY);
  base = server.base;
  stopServer = () => server.close();

  const nonces = createMemoryNonceStore();
  receiver = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      try {
        const event = await verifyWebhook({
          payload: Buffer.concat(chunks),
          headers: req.headers,
          secret: SECRET,
          nonceStore: nonces,
        });
        verified.push(event as unknown as Record<string, unknown>);
        res.writeHead(200).end('ok');
      } catch (err) {
        rejected.push((err as Error).message);
        res.writeHead(400).end('bad signature');
      }
    });
  });
  await new Promise<void>((r) => receiver?.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
}, 60_000);

afterAll(async () => {
  if (hasTmux) {
    try {
      tmux('kill-server');
    } catch {
      /* already gone */
    }
  }
  await stopServer();
  await new Promise((r) => (receiver ? receiver.close(r) : r(undefined)));
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!hasTmux)('xsvc in a terminal, against a running server', () => {
  it('logs in at the prompt, reads, watches a monitor and forwards signed deliveries', async () => {
    const main = shell('main');
    type(main, `xsvc login --base-url ${base}`);
    await screenShows(main, /API key/i);
    type(main, KEY);
    const loggedIn = await screenShows(main, /Logged in/);
    // Validating the key reads GET /account, whose answer carries a Deprecation header: not the user's concern.
    expect(loggedIn).not.toContain('deprecated');
    // The key is never echoed in full.
    expect(tmux('capture-pane', '-p', '-t', main)).not.toContain(KEY);

    type(main, 'xsvc users get jack');
    await screenShows(main, /no state is the best state/);
    type(main, 'xsvc monitors create jack --events tweet.new,tweet.reply; echo "exit=$?"');
    await screenShows(main, /exit=0/);

    const watch = shell('watch');
    type(watch, `xsvc monitors watch 2>${join(dir, 'watch.err')}`);
    await screenShows(watch, /Watching all monitors/);
    const listen = shell('listen');
    type(
      listen,
      `xsvc webhooks listen --forward-to ${receiverUrl} --secret ${SECRET} 2>${join(dir, 'listen.err')}`,
    );
    await screenShows(listen, /Forwarding events to/);

    // Both followers note the newest event before this tweet, so the tweet is new to both of them.
    await new Promise((r) => setTimeout(r, 600));
    const tweet = await sim('POST', '/sim/tweets', { author: 'jack', text: 'hello from the pty e2e' });
    await screenShows(watch, /hello from the pty e2e/);
    await screenShows(watch, /tweet\.new/);
    await screenShows(listen, /→ 200/);
    expect(rejected).toEqual([]);
    expect(verified).toContainEqual(
      expect.objectContaining({ eventType: 'tweet.new', data: expect.objectContaining({ id: tweet.id }) }),
    );

    // Ctrl-C stops the watch cleanly.
    tmux('send-keys', '-t', watch, 'C-c');
    type(watch, 'echo "watch-exit=$?"');
    await screenShows(watch, /watch-exit=(0|130)/);
  }, 300_000);
});
