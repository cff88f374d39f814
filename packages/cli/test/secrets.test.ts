import { describe, expect, it } from 'vitest';
import { cli, recordRequests, serveMockedApi } from './helpers.js';

serveMockedApi();

const PASSWORD = 'pa55-w0rd-hunter2';
const TOTP = 'JBSWY3DPEHPK3PXP';
const connect = ['x-accounts', 'connect', '--username', 'myhandle', '--email', 'me@example.com'];

/** Waits until the recorded JSON bodies have been read (msw reads them asynchronously). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('secrets (passwords, TOTP secrets)', () => {
  it('refuses --password <value> before sending anything: the shell history would keep it', async () => {
    const seen = recordRequests();
    const res = await cli([...connect, '--password', PASSWORD, '--totp-secret', TOTP]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--password takes no value on the command line');
    expect(res.stderr).toContain('--password-stdin');
    expect(res.stderr).not.toContain(PASSWORD);
    expect(seen).toHaveLength(0);
  });

  it('reads the password from --password-stdin and the TOTP secret from its variable', async () => {
    const seen = recordRequests();
    const res = await cli([...connect, '--password-stdin', '--json'], {
      stdin: `${PASSWORD}\n`,
      env: { XSVC_TOTP_SECRET: TOTP },
    });
    expect(res.code, res.stderr).toBe(0);
    await settle();
    expect(seen[0]!.body).toMatchObject({ username: 'myhandle', password: PASSWORD, totp_secret: TOTP });
    expect(res.stdout + res.stderr).not.toContain(PASSWORD);
  });

  it('asks for a missing password on a terminal, without echoing it', async () => {
    const seen = recordRequests();
    const res = await cli(['x-accounts', 'reauth', '1843'], { tty: true, stdin: `${PASSWORD}\r` });
    expect(res.code, res.stderr).toBe(0);
    await settle();
    expect(seen[0]!.body).toMatchObject({ password: PASSWORD });
    expect(res.stderr).toContain('Current password of the platform account (hidden): ');
    expect(res.stdout + res.stderr).not.toContain(PASSWORD);
  });

  it('off a terminal, a missing password is a usage error naming the ways to give it', async () => {
    const seen = recordRequests();
    const res = await cli(['x-accounts', 'reauth', '1843', '--json']);
    expect(res.code).toBe(2);
    const err = JSON.parse(res.stderr) as { error: string; message: string; next: string };
    expect(err.error).toBe('missing_params');
    expect(err.next).toContain('--password-stdin');
    expect(err.next).toContain('XSVC_PASSWORD');
    expect(seen).toHaveLength(0);
  });

  it('--dry-run shows secrets as *** in the curl line, the SDK code and the JSON', async () => {
    const env = { XSVC_PASSWORD: PASSWORD, XSVC_TOTP_SECRET: TOTP };
    const text = await cli([...connect, '--dry-run'], { env });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('"password":"***"');
    expect(text.stdout).toContain("password: '***'");
    const json = await cli([...connect, '--dry-run', '--json'], { env });
    expect(json.json<{ body: Record<string, unknown> }>().body).toMatchObject({
      password: '***',
      totp_secret: '***',
    });
    for (const out of [text.stdout, json.stdout]) {
      expect(out).not.toContain(PASSWORD);
      expect(out).not.toContain(TOTP);
    }
  });

  it('a dry run never asks: a missing secret is shown as ***', async () => {
    const res = await cli(['x-accounts', 'reauth', '1843', '--dry-run']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('"password":"***"');
  });

  it('refuses a secret inside inline --data, but takes it from a file', async () => {
    const inline = await cli([
      'x-accounts',
      'reauth',
      '1843',
      '--data',
      JSON.stringify({ password: PASSWORD }),
    ]);
    expect(inline.code).toBe(2);
    expect(inline.stderr).toContain('--data carries password on the command line');
    expect(inline.stderr).not.toContain(PASSWORD);
    const piped = await cli(['x-accounts', 'reauth', '1843', '--data', '-', '--dry-run'], {
      stdin: JSON.stringify({ password: PASSWORD }),
    });
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).not.toContain(PASSWORD);
  });

  it('help offers --password-stdin and the variable, and no example carries a password', async () => {
    const res = await cli(['x-accounts', 'connect', '--help']);
    expect(res.stdout).toContain('--password-stdin');
    expect(res.stdout).toContain('XSVC_PASSWORD');
    expect(res.stdout).toContain('XSVC_TOTP_SECRET');
    expect(res.stdout).not.toMatch(/--password ["$]/);
  });
});
