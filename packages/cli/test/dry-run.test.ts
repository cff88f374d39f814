import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, BASE, cli, KEY, recordRequests, WORK } from './helpers.js';

beforeAll(() => api.listen({ onUnhandledRequest: 'error' }));
afterEach(() => api.events.removeAllListeners());
afterAll(() => api.close());

describe('--dry-run', () => {
  it('prints the request as curl and as SDK code, the key as $XSVC_API_KEY, sending nothing', async () => {
    const seen = recordRequests();
    const res = await cli(['monitors', 'create', 'jack', '--events', 'tweet.new,tweet.reply', '--dry-run']);
    expect(res.code).toBe(0);
    expect(seen).toHaveLength(0);
    expect(res.stdout).toContain(
      `curl -X POST ${BASE}/api/v1/monitors -H "x-api-key: $XSVC_API_KEY" -H 'content-type: application/json' --data '{"username":"jack","eventTypes":["tweet.new","tweet.reply"]}'`,
    );
    expect(res.stdout).toContain("import { Xsvc } from '@xsvc/sdk';");
    expect(res.stdout).toContain(
      `const xsvc = new Xsvc({ apiKey: process.env.XSVC_API_KEY, baseUrl: '${BASE}' });`,
    );
    expect(res.stdout).toContain(
      "await xsvc.monitors.create({ username: 'jack', eventTypes: ['tweet.new', 'tweet.reply'] });",
    );
    expect(res.stdout).not.toContain(KEY);
    expect(res.stdout).not.toContain(KEY.slice(-8));
  });

  it('quotes what the shell would split, and puts path parameters first in the SDK call', async () => {
    const draft = await cli(['drafts', 'create', "it's here", '--dry-run']);
    expect(draft.stdout).toContain(`--data '{"text":"it'\\''s here"}'`);
    expect(draft.stdout).toContain("await xsvc.drafts.create({ text: 'it\\'s here' });");
    const res = await cli(['users', 'followers', 'jack', '--page-size', '50', '--dry-run']);
    expect(res.stdout).toContain(`curl '${BASE}/api/v1/x/users/jack/followers?pageSize=50'`);
    expect(res.stdout).toContain("const page = await xsvc.users.followers('jack', { pageSize: 50 });");
  });

  it('shows --all as an iteration, and the cursor to resume from', async () => {
    const res = await cli(['events', 'list', '--all', '--cursor', 'abc', '--dry-run']);
    expect(res.stdout).toContain(`curl '${BASE}/api/v1/events?after=abc'`);
    expect(res.stdout).toContain(
      "for await (const item of xsvc.events.list({ after: 'abc' })) console.log(item);",
    );
  });

  it('shows writes with their idempotency key, and the wait', async () => {
    const res = await cli([
      'tweets',
      'create',
      '--account',
      'me',
      '--text',
      'hi',
      '--idempotency-key',
      'k1',
      '--dry-run',
    ]);
    expect(res.stdout).toContain("-H 'idempotency-key: k1'");
    expect(res.stdout).toContain('console.log(await action.wait());');
  });

  it('shows uploads as curl -F and openAsBlob', async () => {
    writeFileSync(join(WORK, 'pic.png'), 'png');
    const res = await cli(['media', 'upload', '--account', 'me', '--file', 'pic.png', '--dry-run']);
    expect(res.stdout).toContain('-F account=me -F file=@pic.png');
    expect(res.stdout).not.toContain('content-type');
    expect(res.stdout).toContain("import { openAsBlob } from 'node:fs';");
    expect(res.stdout).toContain("file: await openAsBlob('pic.png')");
  });

  it('leaves the key out of public operations', async () => {
    const res = await cli(['ask', 'query', 'webhooks', '--dry-run']);
    expect(res.stdout).toContain(`curl '${BASE}/ask?query=webhooks'`);
    expect(res.stdout).not.toContain('XSVC_API_KEY');
  });

  it('with --json prints the parts as one object', async () => {
    const res = await cli(['tweets', 'get', '20', '--dry-run', '--json']);
    expect(res.json()).toEqual({
      method: 'GET',
      url: `${BASE}/api/v1/x/tweets/20`,
      headers: { 'x-api-key': '$XSVC_API_KEY' },
      curl: `curl ${BASE}/api/v1/x/tweets/20 -H "x-api-key: $XSVC_API_KEY"`,
      sdk: expect.stringContaining("await xsvc.tweets.get('20');"),
    });
  });

  it('still validates first, and needs no key', async () => {
    const bad = await cli(['tweets', 'search', '--dry-run']);
    expect(bad.code).toBe(2);
    const noKey = await cli(['account', 'get', '--dry-run'], { env: { XSVC_API_KEY: undefined } });
    expect(noKey.code).toBe(0);
  });
});
