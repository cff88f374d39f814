import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mockError } from '@xsvc/sdk/testing';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  api,
  BASE,
  type CliOptions,
  cli,
  recordRequests,
  serveMockedApi,
  tempConfigHome,
} from './helpers.js';

serveMockedApi();

const KEY_A = `svc_${'1'.repeat(60)}aaaa`;
const KEY_B = `svc_${'2'.repeat(60)}bbbb`;
const OTHER = 'http://other.test';

/** Options for a run with no key in the environment and its own config dir. */
function fresh(extra: CliOptions = {}): CliOptions {
  const home = extra.configHome ?? tempConfigHome();
  return {
    configHome: home,
    ...extra,
    env: { XSVC_API_KEY: undefined, XSVC_BASE_URL: undefined, ...extra.env },
  };
}
const configOf = (home: string) => JSON.parse(readFileSync(join(home, 'xsvc', 'config.json'), 'utf8'));

describe('login', () => {
  it('checks the key with GET /account, saves it 0600 under $XDG_CONFIG_HOME/xsvc, never prints it whole', async () => {
    const opts = fresh();
    const seen = recordRequests();
    const res = await cli(['login', '--api-key', KEY_A, '--base-url', BASE], opts);
    expect(res.code).toBe(0);
    expect(seen.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v1/account']);
    expect(seen[0]!.headers.get('x-api-key')).toBe(KEY_A);
    const file = join(opts.configHome!, 'xsvc', 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(opts.configHome!, 'xsvc')).mode & 0o777).toBe(0o700);
    expect(configOf(opts.configHome!)).toEqual({
      currentProfile: 'default',
      profiles: { default: { apiKey: KEY_A, baseUrl: BASE } },
    });
    expect(res.stdout + res.stderr).not.toContain(KEY_A);
    expect(res.stdout).toContain('svc_…aaaa');
  });

  it('reads the key from stdin with --api-key -', async () => {
    const opts = fresh({ stdin: `${KEY_A}\n` });
    const res = await cli(['login', '--api-key', '-', '--base-url', BASE], opts);
    expect(res.code).toBe(0);
    expect(configOf(opts.configHome!).profiles.default.apiKey).toBe(KEY_A);
  });

  it('asks for the key on a terminal, without echoing it', async () => {
    const opts = fresh({ tty: true, stdin: `${KEY_B}\r` });
    const res = await cli(['login', '--base-url', BASE], opts);
    expect(res.code).toBe(0);
    expect(res.stderr).toContain('Paste your API key');
    expect(res.stderr + res.stdout).not.toContain(KEY_B);
    expect(configOf(opts.configHome!).profiles.default.apiKey).toBe(KEY_B);
  });

  it('never prompts without a terminal: a usage error naming --api-key, nothing sent', async () => {
    const seen = recordRequests();
    const res = await cli(['login', '--base-url', BASE], fresh({ stdinTty: true }));
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--api-key');
    expect(seen).toHaveLength(0);
  });

  it('a refused key: exit 4, nothing saved', async () => {
    api.use(http.get(`${BASE}/api/v1/account`, () => mockError(401, 'unauthenticated')));
    const opts = fresh();
    const res = await cli(['login', '--api-key', KEY_A, '--base-url', BASE], opts);
    expect(res.code).toBe(4);
    expect(res.stderr).toContain('refused the key svc_…aaaa');
    expect(() => configOf(opts.configHome!)).toThrow();
  });
});

describe('profiles', () => {
  async function twoProfiles(): Promise<string> {
    const home = tempConfigHome();
    await cli(['login', '--api-key', KEY_A, '--base-url', BASE], fresh({ configHome: home }));
    await cli(
      ['login', '--profile', 'work', '--api-key', KEY_B, '--base-url', BASE],
      fresh({ configHome: home }),
    );
    return home;
  }

  it('list them, the current one marked, keys as prefix and last 4', async () => {
    const home = await twoProfiles();
    const res = await cli(['profiles', 'list', '--json'], fresh({ configHome: home }));
    expect(res.json()).toEqual([
      { name: 'default', current: false, baseUrl: BASE, key: 'svc_…aaaa' },
      { name: 'work', current: true, baseUrl: BASE, key: 'svc_…bbbb' },
    ]);
    const table = await cli(
      ['profiles', 'list'],
      fresh({ configHome: home, tty: true, env: { NO_COLOR: '1' } }),
    );
    expect(table.stdout).toMatch(/work\s+\*\s+http/);
    expect(table.stdout).not.toContain(KEY_A);
  });

  it('the current profile, --profile and XSVC_PROFILE choose the key sent', async () => {
    const home = await twoProfiles();
    const seen = recordRequests();
    await cli(['account', 'get'], fresh({ configHome: home }));
    await cli(['account', 'get', '--profile', 'default'], fresh({ configHome: home }));
    await cli(['account', 'get'], fresh({ configHome: home, env: { XSVC_PROFILE: 'default' } }));
    await cli(['profiles', 'use', 'default'], fresh({ configHome: home }));
    await cli(['account', 'get'], fresh({ configHome: home }));
    expect(seen.map((r) => r.headers.get('x-api-key'))).toEqual([KEY_B, KEY_A, KEY_A, KEY_A]);
  });

  it('XSVC_API_KEY and XSVC_BASE_URL override the profile; --base-url overrides both', async () => {
    const home = await twoProfiles();
    const seen = recordRequests();
    await cli(['account', 'get'], fresh({ configHome: home, env: { XSVC_API_KEY: KEY_A } }));
    expect(seen[0]!.headers.get('x-api-key')).toBe(KEY_A);
    const dry = await cli(
      ['account', 'get', '--dry-run', '--json'],
      fresh({ configHome: home, env: { XSVC_BASE_URL: OTHER } }),
    );
    expect(dry.json<{ url: string }>().url).toBe(`${OTHER}/api/v1/account`);
    const flag = await cli(
      ['account', 'get', '--dry-run', '--json', '--base-url', 'http://flag.test'],
      fresh({ configHome: home, env: { XSVC_BASE_URL: OTHER } }),
    );
    expect(flag.json<{ url: string }>().url).toBe('http://flag.test/api/v1/account');
  });

  it('an unknown --profile, or a bad --base-url, is a usage error', async () => {
    const home = await twoProfiles();
    expect((await cli(['account', 'get', '--profile', 'nope'], fresh({ configHome: home }))).code).toBe(2);
    const bad = await cli(['account', 'get', '--base-url', 'ftp://x'], fresh({ configHome: home }));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--base-url');
  });

  it('remove deletes a profile; logout removes only its key', async () => {
    const home = await twoProfiles();
    await cli(['logout'], fresh({ configHome: home }));
    expect(configOf(home).profiles.work).toEqual({ baseUrl: BASE });
    expect((await cli(['account', 'get'], fresh({ configHome: home }))).code).toBe(4);
    await cli(['profiles', 'remove', 'work'], fresh({ configHome: home }));
    expect(Object.keys(configOf(home).profiles)).toEqual(['default']);
    expect(configOf(home).currentProfile).toBeUndefined();
    expect(statSync(join(home, 'xsvc', 'config.json')).mode & 0o777).toBe(0o600);
    expect((await cli(['profiles', 'use', 'work'], fresh({ configHome: home }))).code).toBe(2);
  });

  it('a corrupt config file is an error naming it', async () => {
    const home = tempConfigHome();
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(home, 'xsvc'));
    writeFileSync(join(home, 'xsvc', 'config.json'), '{oops');
    const res = await cli(['account', 'get'], fresh({ configHome: home }));
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('config.json is not valid JSON');
  });

  it('falls back to ~/.config/xsvc without XDG_CONFIG_HOME', async () => {
    const { configFile } = await import('../src/config/paths.js');
    expect(configFile({ env: {}, home: '/home/u' })).toBe('/home/u/.config/xsvc/config.json');
    expect(configFile({ env: { XDG_CONFIG_HOME: 'relative' }, home: '/home/u' })).toBe(
      '/home/u/.config/xsvc/config.json',
    );
    expect(configFile({ env: { XDG_CONFIG_HOME: '/x' }, home: '/home/u' })).toBe('/x/xsvc/config.json');
  });
});
