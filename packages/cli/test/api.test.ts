import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { api, BASE, cli, KEY, recordRequests, serveMockedApi, V1 } from './helpers.js';

serveMockedApi();

/** Search results over 3 pages in cursor style B, and events over 2 pages in style A. */
function pagedEndpoints(): URLSearchParams[] {
  const seen: URLSearchParams[] = [];
  api.use(
    http.get(`${V1}/x/tweets/search`, ({ request }) => {
      const q = new URL(request.url).searchParams;
      seen.push(q);
      const n = Number(q.get('cursor') ?? '0');
      const more = n < 2;
      return HttpResponse.json({
        tweets: [{ id: `t${n}`, text: q.get('q') }],
        has_next_page: more,
        next_cursor: more ? String(n + 1) : '',
      });
    }),
    http.get(`${V1}/events`, ({ request }) => {
      const q = new URL(request.url).searchParams;
      seen.push(q);
      const first = q.get('after') === null;
      return HttpResponse.json({
        events: [{ id: first ? 'e0' : 'e1' }],
        hasMore: first,
        ...(first && { nextCursor: 'a1' }),
      });
    }),
  );
  return seen;
}

describe('xsvc api', () => {
  it('GETs a path with the key, fields in the query, and --paginate follows next_cursor', async () => {
    const seen = pagedEndpoints();
    const requests = recordRequests();
    const res = await cli(['api', 'GET', '/api/v1/x/tweets/search', '-f', 'q=hello', '--paginate']);
    expect(res.code, res.stderr).toBe(0);
    expect(seen.map((q) => [q.get('q'), q.get('cursor')])).toEqual([
      ['hello', null],
      ['hello', '1'],
      ['hello', '2'],
    ]);
    expect(requests[0]!.headers.get('x-api-key')).toBe(KEY);
    expect(res.json()).toEqual({
      tweets: [
        { id: 't0', text: 'hello' },
        { id: 't1', text: 'hello' },
        { id: 't2', text: 'hello' },
      ],
      has_next_page: false,
      next_cursor: '',
    });
  });

  it('--paginate also follows hasMore/nextCursor with after; --jq applies', async () => {
    const seen = pagedEndpoints();
    const res = await cli(['api', '/api/v1/events', '--paginate', '--jq', '.events[].id']);
    expect(res.code, res.stderr).toBe(0);
    expect(seen.map((q) => q.get('after'))).toEqual([null, 'a1']);
    expect(res.stdout).toBe('e0\ne1\n');
  });

  it('sends a JSON body from stdin plus typed fields, POST by default', async () => {
    let received: unknown;
    let method = '';
    api.use(
      http.all(`${V1}/monitors`, async ({ request }) => {
        method = request.method;
        received = await request.json();
        return HttpResponse.json({ id: 'mon_1' }, { status: 201 });
      }),
    );
    const res = await cli(
      ['api', '/api/v1/monitors', '--input', '-', '-F', 'isActive=false', '-F', 'limit=5', '-f', 'n=5'],
      { stdin: JSON.stringify({ username: 'jack', eventTypes: ['tweet.new'] }) },
    );
    expect(res.code, res.stderr).toBe(0);
    expect(method).toBe('POST');
    expect(received).toEqual({
      username: 'jack',
      eventTypes: ['tweet.new'],
      isActive: false,
      limit: 5,
      n: '5',
    });
    expect(res.json()).toEqual({ id: 'mon_1' });
  });

  it('--dry-run prints the curl line with the key as $XSVC_API_KEY, sending nothing', async () => {
    const seen = recordRequests();
    const res = await cli(['api', 'DELETE', '/api/v1/monitors/mon_1', '-H', 'x-trace: 1', '--dry-run']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.trim()).toBe(
      `curl -X DELETE ${BASE}/api/v1/monitors/mon_1 -H "x-api-key: $XSVC_API_KEY" -H 'x-trace: 1'`,
    );
    expect(seen).toHaveLength(0);
  });

  it('an error answer is reported like any command: its code and exit status', async () => {
    api.use(
      http.get(`${V1}/nothing`, () =>
        HttpResponse.json({ error: 'not_found', message: 'no such route' }, { status: 404 }),
      ),
    );
    const res = await cli(['api', '/api/v1/nothing', '--json']);
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stderr)).toMatchObject({ error: 'not_found', status: 404 });
  });

  it('refuses what it cannot send safely: no leading /, a credentials header, a bad method', async () => {
    const seen = recordRequests();
    expect((await cli(['api', 'https://elsewhere.example/x'])).code).toBe(2);
    const header = await cli(['api', '/api/v1/account', '-H', 'x-api-key: other']);
    expect(header.code).toBe(2);
    expect(header.stderr).toContain('credentials come from the profile');
    expect((await cli(['api', 'FETCH', '/api/v1/account'])).code).toBe(2);
    expect((await cli(['api', 'POST', '/api/v1/monitors', '--paginate'])).code).toBe(2);
    expect(seen).toHaveLength(0);
  });
});
