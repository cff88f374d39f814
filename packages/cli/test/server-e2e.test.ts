import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliOptions, cli, tempConfigHome } from './helpers.js';
import { startLocalServer } from './local-server.js';

/**
 * The README's quick tour against a real `@xsvc/server` (in memory, tiny simulated network) on a loopback
 * port: the CLI and the service agree on the wire, not only with the mocks.
 */
const KEY = `svc_${'c0'.repeat(32)}`;
let base = '';
let close: () => Promise<void> = async () => {};
const home = tempConfigHome();
const opts = (): CliOptions => ({
  configHome: home,
  env: { XSVC_API_KEY: undefined, XSVC_BASE_URL: undefined },
  interactive: 'real',
});

beforeAll(async () => {
  const server = await startLocalServer(KEY);
  base = server.base;
  close = () => server.close();
});
afterAll(() => close());

describe('the quick tour, against a local server', () => {
  it('logs in with the printed key, then reads with the saved profile', async () => {
    const login = await cli(['login', '--base-url', base, '--api-key', '-'], { ...opts(), stdin: KEY });
    expect(login.code).toBe(0);
    expect(login.stdout).toContain('Logged in');
    const account = await cli(['account', 'get', '--json'], opts());
    expect(account.code).toBe(0);
    expect(account.json()).toMatchObject({ plan: 'active' });
  });

  it('looks up a user, searches tweets, pages followers', async () => {
    const user = await cli(['users', 'get', 'jack', '--json'], opts());
    expect(user.json()).toMatchObject({ username: 'jack' });
    const search = await cli(['tweets', 'search', 'hello', '--limit', '5', '--json'], opts());
    expect(search.code).toBe(0);
    expect(search.json<{ tweets: unknown[] }>().tweets.length).toBeGreaterThan(0);
    const followers = await cli(['users', 'followers', 'jack', '--limit', '3', '--json'], opts());
    expect(followers.json<{ users: unknown[] }>().users).toHaveLength(3);
    expect(followers.json()).toHaveProperty('next_cursor');
    // Piped, stderr stays quiet: the page object carries the cursor (hints are for a terminal).
    expect(followers.stderr).toBe('');
  });

  it('creates a monitor and lists it', async () => {
    const created = await cli(
      ['monitors', 'create', 'jack', '--events', 'tweet.new,tweet.reply', '--json'],
      opts(),
    );
    expect(created.code).toBe(0);
    const id = created.json<{ id: string }>().id;
    const list = await cli(['monitors', 'list', '--json'], opts());
    expect(list.json<{ monitors: { id: string }[] }>().monitors.map((m) => m.id)).toContain(id);
    const bad = await cli(['monitors', 'create', 'jack', '--events', 'tweet.nope'], opts());
    expect(bad.code).toBe(2);
  });

  it('a refinement the local checks leave to the service still names the argument (exit 2)', async () => {
    const res = await cli(['users', 'get', 'not a user!'], opts());
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/<user>: .*numeric user id/);
    expect(res.stderr).toContain('The service refused it');
  });
});

describe('webhooks delete, against a local server', () => {
  it('removes the webhook from the list; a paused one stays listed', async () => {
    const server = await startLocalServer(KEY, { allowLoopbackWebhooks: true });
    try {
      const env = { env: { XSVC_API_KEY: KEY, XSVC_BASE_URL: server.base } };
      const create = async () => {
        const res = await cli(
          ['webhooks', 'create', '--url', 'http://127.0.0.1:9/hook', '--events', 'tweet.new', '--json'],
          env,
        );
        expect(res.code, res.stderr).toBe(0);
        return res.json<{ id: string }>().id;
      };
      const deleted = await create();
      const paused = await create();
      expect((await cli(['webhooks', 'update', paused, '--no-is-active'], env)).code).toBe(0);
      const del = await cli(['webhooks', 'delete', deleted], env);
      expect(del.code, del.stderr).toBe(0);
      const list = await cli(['webhooks', 'list', '--json'], env);
      const listed = list.json<{ webhooks: { id: string; isActive: boolean }[] }>().webhooks;
      expect(listed.map((w) => w.id)).not.toContain(deleted);
      expect(listed.find((w) => w.id === paused)).toMatchObject({ isActive: false });
      const again = await cli(['webhooks', 'delete', deleted], env);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('not_found');
    } finally {
      await server.close();
    }
  });
});
