import { exampleResponse } from '@xsvc/sdk/testing';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { api, cli, serveMockedApi, V1 } from './helpers.js';

serveMockedApi();

const user = exampleResponse('getUserFollowers') as { users: Record<string, unknown>[] };

/** Followers served 3 per page (style B): `c1`, `c2`, then the end; records each request's query. */
function followers(pages = 3, perPage = 3): URLSearchParams[] {
  const seen: URLSearchParams[] = [];
  api.use(
    http.get(`${V1}/x/users/:id/followers`, ({ request }) => {
      const q = new URL(request.url).searchParams;
      seen.push(q);
      const n = q.get('cursor') === null ? 0 : Number(q.get('cursor')!.slice(1));
      const users = Array.from({ length: perPage }, (_, i) => ({
        ...user.users[0],
        id: String(n * perPage + i),
        username: `u${n * perPage + i}`,
      }));
      const more = n + 1 < pages;
      return HttpResponse.json({ users, has_next_page: more, next_cursor: more ? `c${n + 1}` : '' });
    }),
  );
  return seen;
}

/** Events served 2 per page (style A: `after` / `hasMore` / `nextCursor`). */
function events(pages = 2): URLSearchParams[] {
  const seen: URLSearchParams[] = [];
  const event = (exampleResponse('listEvents') as { events: Record<string, unknown>[] }).events[0]!;
  api.use(
    http.get(`${V1}/events`, ({ request }) => {
      const q = new URL(request.url).searchParams;
      seen.push(q);
      const n = q.get('after') === null ? 0 : Number(q.get('after')!.slice(1));
      const more = n + 1 < pages;
      return HttpResponse.json({
        events: [0, 1].map((i) => ({ ...event, id: `e${n * 2 + i}` })),
        hasMore: more,
        ...(more && { nextCursor: `a${n + 1}` }),
      });
    }),
  );
  return seen;
}

const ids = (lines: { id: string }[]) => lines.map((l) => l.id);
/** The items of the page object a listing prints with `--json`. */
const items = (res: { json<T>(): T }, key = 'users') => res.json<Record<string, { id: string }[]>>()[key]!;

describe('listings', () => {
  it('print one page by default, and how to get the next on stderr, only on a terminal', async () => {
    const seen = followers();
    const res = await cli(['users', 'followers', 'jack']);
    expect(seen).toHaveLength(1);
    expect(res.stdout.trim().split('\n')).toHaveLength(3);
    expect(res.stderr).toBe('');
    const tty = await cli(['users', 'followers', 'jack'], { tty: true, env: { NO_COLOR: '1' } });
    expect(tty.stderr).toContain('More results: resume with\n  xsvc users followers jack --cursor c1');
  });

  it('--all walks every page; --json prints one page object holding every item, as without --all', async () => {
    const seen = followers();
    const res = await cli(['users', 'followers', 'jack', '--all', '--json']);
    expect(res.code).toBe(0);
    expect(ids(items(res))).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8']);
    expect(res.json()).toMatchObject({ has_next_page: false, next_cursor: null });
    expect(seen.map((q) => q.get('cursor'))).toEqual([null, 'c1', 'c2']);
    expect(res.stderr).toBe('');
    const one = await cli(['users', 'followers', 'jack', '--json']);
    expect(Object.keys(one.json<object>()).sort()).toEqual(Object.keys(res.json<object>()).sort());
  });

  it('--limit pages until it has enough, sets the page size, and prints the cursor to resume on stderr', async () => {
    const seen = followers(5, 20);
    const res = await cli(['users', 'followers', 'jack', '--limit', '40', '--json']);
    expect(items(res)).toHaveLength(40);
    expect(res.json()).toMatchObject({ has_next_page: true, next_cursor: 'c2' });
    expect(seen.map((q) => q.get('cursor'))).toEqual([null, 'c1']);
    expect(seen[0]!.get('limit')).toBe('40');
    expect(res.stderr).toBe('');
    followers(5, 20);
    const tty = await cli(['users', 'followers', 'jack', '--limit', '40', '--json'], { tty: true });
    const stop = JSON.parse(/\{"next_cursor".*\}/.exec(tty.stderr)?.[0] ?? '') as {
      next_cursor: string;
      resume: string;
    };
    expect(stop.next_cursor).toBe('c2');
    expect(stop.resume).toBe('xsvc users followers jack --limit 40 --json --cursor c2');
  });

  it('--cursor resumes where a run stopped', async () => {
    const seen = followers();
    const res = await cli(['users', 'followers', 'jack', '--cursor', 'c2', '--all', '--json']);
    expect(ids(items(res))).toEqual(['6', '7', '8']);
    expect(seen.map((q) => q.get('cursor'))).toEqual(['c2']);
  });

  it('a limit that cuts a page says the resumed page repeats what was shown', async () => {
    followers(3, 3);
    const piped = await cli(['users', 'followers', 'jack', '--limit', '4']);
    expect(piped.stdout.trim().split('\n')).toHaveLength(4);
    followers(3, 3);
    const res = await cli(['users', 'followers', 'jack', '--limit', '4'], {
      tty: true,
      env: { NO_COLOR: '1' },
    });
    expect(res.stderr).toContain('--cursor c1');
    expect(res.stderr).toContain('repeats the 1 items already shown');
  });

  it('style A listings page with after / nextCursor, and --cursor maps to after', async () => {
    const seen = events(3);
    const all = await cli(['events', 'list', '--all', '--json']);
    expect(ids(items(all, 'events'))).toEqual(['e0', 'e1', 'e2', 'e3', 'e4', 'e5']);
    expect(all.json()).toMatchObject({ hasMore: false, nextCursor: null });
    expect(seen.map((q) => q.get('after'))).toEqual([null, 'a1', 'a2']);
    seen.length = 0;
    await cli(['events', 'list', '--cursor', 'a2', '--limit', '1', '--json']);
    expect(seen[0]!.get('after')).toBe('a2');
    expect(seen[0]!.get('limit')).toBe('1');
  });

  it('streams tab-separated rows when piped, one table at the end on a terminal', async () => {
    followers(2, 2);
    const piped = await cli(['users', 'followers', 'jack', '--all']);
    expect(piped.stdout.trim().split('\n')).toHaveLength(4);
    expect(piped.stdout).not.toContain('USERNAME');
    const tty = await cli(['users', 'followers', 'jack', '--all'], { tty: true, env: { NO_COLOR: '1' } });
    const lines = tty.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+USERNAME/);
    expect(lines).toHaveLength(5);
  });

  it('shows progress on stderr only on a terminal', async () => {
    followers(2, 2);
    const tty = await cli(['users', 'followers', 'jack', '--all', '--json'], { tty: true });
    expect(tty.stderr).toContain('Fetched 4 items');
    expect(tty.stdout).not.toContain('Fetched');
    followers(2, 2);
    const piped = await cli(['users', 'followers', 'jack', '--all', '--json']);
    expect(piped.stderr).toBe('');
  });

  it('stops when the service repeats a cursor instead of looping', async () => {
    api.use(
      http.get(`${V1}/x/users/:id/followers`, () =>
        HttpResponse.json({
          users: [{ ...user.users[0], id: '1' }],
          has_next_page: true,
          next_cursor: 'same',
        }),
      ),
    );
    const res = await cli(['users', 'followers', 'jack', '--all', '--json']);
    expect(res.code).toBe(0);
    expect(ids(items(res))).toEqual(['1']);
    expect(res.stderr).toContain('repeated cursor');
  });
});
