import { exampleResponse } from '@xsvc/sdk/testing';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { api, BASE, cli, KEY, recordRequests, serveMockedApi, V1 } from './helpers.js';

serveMockedApi();

const settle = () => new Promise((r) => setTimeout(r, 0));
/** A draw id (draws are identified by UUIDs). */
const DRAW = '00000000-0000-4000-8000-0000000000d1';

describe('arguments and flags become the request', () => {
  it.each([
    [
      'tweets search "from:jack" --query-type Latest --min-faves 10 --verified-only',
      'GET',
      '/api/v1/x/tweets/search',
      { q: 'from:jack', queryType: 'Latest', minFaves: '10', verifiedOnly: 'true' },
    ],
    [
      'tweets search --q from:jack --no-verified-only',
      'GET',
      '/api/v1/x/tweets/search',
      { q: 'from:jack', verifiedOnly: 'false' },
    ],
    ['tweets get 1790000000000000001', 'GET', '/api/v1/x/tweets/1790000000000000001', {}],
    ['tweets batch 1,2 --ids 3', 'GET', '/api/v1/x/tweets', { ids: '1,2,3' }],
    ['users followers jack --page-size 50', 'GET', '/api/v1/x/users/jack/followers', { pageSize: '50' }],
    ['users get @jack', 'GET', '/api/v1/x/users/%40jack', {}],
    ['events list --event-type tweet.new', 'GET', '/api/v1/events', { eventType: 'tweet.new' }],
    ['draws list', 'GET', '/api/v1/draws', {}],
    ['webhooks deliveries 42', 'GET', '/api/v1/webhooks/42/deliveries', {}],
    ['trends list --woeid 1 --count 5', 'GET', '/api/v1/trends', { woeid: '1', count: '5' }],
    ['communities members 123', 'GET', '/api/v1/x/communities/123/members', {}],
    ['lists tweets 123', 'GET', '/api/v1/x/lists/123/tweets', {}],
    ['ask query "how do webhooks work"', 'GET', '/ask', { query: 'how do webhooks work' }],
  ])('%s', async (line, method, path, query) => {
    const seen = recordRequests();
    const res = await cli([...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!));
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method, path, query });
    if (path.startsWith('/api/')) expect(seen[0]!.headers.get('x-api-key')).toBe(KEY);
  });

  it.each([
    [
      'monitors create jack --events tweet.new,tweet.reply',
      'POST',
      '/api/v1/monitors',
      { username: 'jack', eventTypes: ['tweet.new', 'tweet.reply'] },
    ],
    [
      'monitors create --username jack --event-types tweet.new --event-types tweet.quote',
      'POST',
      '/api/v1/monitors',
      { username: 'jack', eventTypes: ['tweet.new', 'tweet.quote'] },
    ],
    ['monitors update 7 --is-active false', 'PATCH', '/api/v1/monitors/7', { isActive: false }],
    [
      'monitors keywords create "ai agents" --event-types tweet.new',
      'POST',
      '/api/v1/monitors/keywords',
      { query: 'ai agents', eventTypes: ['tweet.new'] },
    ],
    [
      'webhooks create https://example.com/hook --events tweet.new',
      'POST',
      '/api/v1/webhooks',
      { url: 'https://example.com/hook', eventTypes: ['tweet.new'] },
    ],
    ['drafts create "hello world"', 'POST', '/api/v1/drafts', { text: 'hello world' }],
    ['account update tr', 'PATCH', '/api/v1/account', { locale: 'tr' }],
    ['credits topup 10', 'POST', '/api/v1/credits/topup', { dollars: 10 }],
    [
      'support tickets create --subject Help --body "It broke"',
      'POST',
      '/api/v1/support/tickets',
      { subject: 'Help', body: 'It broke' },
    ],
    [
      'compose run --step compose --topic releases',
      'POST',
      '/api/v1/compose',
      { step: 'compose', topic: 'releases' },
    ],
  ])('%s', async (line, method, path, body) => {
    const seen = recordRequests();
    const res = await cli([...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!));
    await settle();
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method, path });
    expect(seen[0]!.body).toEqual(body);
  });

  it('--data supplies parameters as JSON (inline, @file or stdin); flags win', async () => {
    const seen = recordRequests();
    const res = await cli(['monitors', 'create', '--data', '-', 'bob'], {
      stdin: JSON.stringify({ username: 'alice', eventTypes: ['tweet.new'] }),
    });
    await settle();
    expect(res.code).toBe(0);
    expect(seen[0]!.body).toEqual({ username: 'bob', eventTypes: ['tweet.new'] });
  });

  it('JSON parameters take inline JSON or @file', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { WORK } = await import('./helpers.js');
    const tweets = [{ id: '1', text: 'hi', authorUsername: 'jack', createdAt: '2026-04-29T12:00:00.000Z' }];
    writeFileSync(join(WORK, 'tweets.json'), JSON.stringify(tweets));
    const seen = recordRequests();
    const res = await cli(['styles', 'save', 'jack', '--label', 'Jack', '--tweets', '@tweets.json']);
    await settle();
    expect(res.stderr).toBe('');
    expect(seen[0]!.body).toMatchObject({ label: 'Jack', tweets });
  });

  it('uploads files as multipart', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { WORK } = await import('./helpers.js');
    writeFileSync(join(WORK, 'pic.png'), 'png bytes');
    let form: FormData | undefined;
    api.use(
      http.post(`${V1}/x/media`, async ({ request }) => {
        form = await request.formData();
        return HttpResponse.json(exampleResponse('uploadMedia') as Record<string, unknown>);
      }),
    );
    const res = await cli(['media', 'upload', '--account', 'me', '--file', 'pic.png', '--no-wait']);
    expect([0, 8]).toContain(res.code);
    const file = form?.get('file') as File;
    expect(file.name).toBe('pic.png');
    expect(file.type).toBe('image/png');
    expect(await file.text()).toBe('png bytes');
    expect(form?.get('account')).toBe('me');
  });
});

describe('answers become output', () => {
  const tweetPage = (texts: string[]) => {
    const page = exampleResponse('searchTweets') as { tweets: Record<string, unknown>[] };
    const template = page.tweets[0]!;
    return {
      ...page,
      tweets: texts.map((text, i) => ({
        ...template,
        id: String(100 + i),
        text,
        author: { id: '9', username: 'jack', name: 'Jack' },
      })),
      has_next_page: false,
      next_cursor: '',
    };
  };

  it('prints a table on a terminal: chosen columns, a header, long text cut to the width', async () => {
    api.use(
      http.get(`${V1}/x/tweets/search`, () => HttpResponse.json(tweetPage(['short', 'x'.repeat(300)]))),
    );
    const res = await cli(['tweets', 'search', 'jack'], { tty: true, columns: 80, env: { NO_COLOR: '1' } });
    const lines = res.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+AUTHOR\s+CREATED AT\s+.*TEXT$/);
    expect(lines[1]).toMatch(/^100\s+jack\s+.*short$/);
    expect(lines[2]!.endsWith('…')).toBe(true);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    expect(res.stdout).not.toContain('\u001b[');
  });

  it('colours the header on a terminal, unless NO_COLOR or --no-color', async () => {
    api.use(http.get(`${V1}/x/tweets/search`, () => HttpResponse.json(tweetPage(['a']))));
    expect(
      (await cli(['tweets', 'search', 'jack'], { tty: true, env: { NO_COLOR: undefined } })).stdout,
    ).toContain('\u001b[1m');
    expect((await cli(['tweets', 'search', 'jack', '--no-color'], { tty: true })).stdout).not.toContain(
      '\u001b[',
    );
    expect(
      (await cli(['tweets', 'search', 'jack'], { tty: true, env: { NO_COLOR: 'yes' } })).stdout,
    ).not.toContain('\u001b[');
  });

  it('prints tab-separated rows without a header, nothing cut, no colour, when piped', async () => {
    const long = 'y'.repeat(300);
    api.use(http.get(`${V1}/x/tweets/search`, () => HttpResponse.json(tweetPage(['a\tb\nc', long]))));
    const res = await cli(['tweets', 'search', 'jack']);
    const rows = res.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows).toHaveLength(2);
    expect(rows[0]![0]).toBe('100');
    expect(rows[0]).toContain('a b c');
    expect(rows[1]).toContain(long);
    expect(res.stdout).not.toContain('\u001b[');
  });

  it('--json prints the answer as the service gave it', async () => {
    const body = tweetPage(['a']);
    api.use(http.get(`${V1}/x/tweets/search`, () => HttpResponse.json(body)));
    const res = await cli(['tweets', 'search', 'jack', '--json']);
    expect(res.json()).toEqual(body);
  });

  it('prints a single answer as key/value lines, unwrapping a lone object', async () => {
    api.use(
      http.get(`${V1}/monitors/:id`, ({ params }) =>
        HttpResponse.json({ ...(exampleResponse('getMonitor') as object), id: params.id, username: 'jack' }),
      ),
    );
    const res = await cli(['monitors', 'get', '77']);
    expect(res.stdout).toContain('id\t77\n');
    expect(res.stdout).toContain('username\tjack\n');
    const tty = await cli(['monitors', 'get', '77'], { tty: true, env: { NO_COLOR: '1' } });
    expect(tty.stdout).toMatch(/^id\s+77$/m);
  });

  it('says "No results." on stderr for an empty list on a terminal, keeping stdout empty', async () => {
    api.use(http.get(`${V1}/monitors`, () => HttpResponse.json({ monitors: [], total: 0 })));
    const res = await cli(['monitors', 'list'], { tty: true, env: { NO_COLOR: '1' } });
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('No results.');
    const piped = await cli(['monitors', 'list']);
    expect(piped.stdout).toBe('');
    expect(piped.stderr).toBe('');
  });

  it('saves a file answer with --output, or streams it to a pipe', async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { WORK } = await import('./helpers.js');
    api.use(
      http.get(
        `${V1}/draws/:id/export`,
        () => new HttpResponse('a,b\n1,2\n', { headers: { 'content-type': 'text/csv' } }),
      ),
    );
    const saved = await cli(['draws', 'export', DRAW, '--format', 'csv', '--output', 'winners.csv']);
    expect(saved.code).toBe(0);
    expect(readFileSync(join(WORK, 'winners.csv'), 'utf8')).toBe('a,b\n1,2\n');
    expect(saved.stderr).toContain('Saved 8 bytes');
    const piped = await cli(['draws', 'export', DRAW, '--format', 'csv']);
    expect(piped.stdout).toBe('a,b\n1,2\n');
  });

  it('refuses to print a file answer on a terminal before sending anything', async () => {
    const seen = recordRequests();
    const res = await cli(['draws', 'export', DRAW, '--format', 'csv'], { tty: true });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--output');
    expect(seen).toHaveLength(0);
  });

  it('prints nothing on stdout for an empty answer, {"ok":true} with --json', async () => {
    expect((await cli(['drafts', 'delete', 'd1'])).stdout).toBe('');
    expect((await cli(['drafts', 'delete', 'd1', '--json'])).json()).toMatchObject({ ok: true });
  });

  it('prints text answers as they are', async () => {
    api.use(
      http.get(
        `${BASE}/openapi.yaml`,
        () => new HttpResponse('openapi: 3.1.0\n', { headers: { 'content-type': 'application/yaml' } }),
      ),
    );
    expect((await cli(['discovery', 'openapi-yaml'])).stdout).toBe('openapi: 3.1.0\n');
  });
});
