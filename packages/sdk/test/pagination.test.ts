import { describe, expect, it, vi } from 'vitest';
import { Transport } from '../src/client/core.js';
import { fetchPage, PagePromise } from '../src/client/pagination.js';
import { listRouteA, listRouteB, scriptedFetch } from './helpers.js';

function t(f: typeof fetch, warn = vi.fn()) {
  return new Transport({ apiKey: 'svc_x', baseUrl: 'http://svc.test', fetch: f, logger: { warn } });
}
const list = <I>(tr: Transport, route = listRouteB, params: Record<string, unknown> = { q: 'x' }) =>
  PagePromise.from(() => fetchPage<I, unknown>(tr, route, params, {}, undefined));

const tweets = (...ids: string[]) => ids.map((id) => ({ id, text: `t${id}` }));

describe('pagination', () => {
  it('style B: iterates every item across pages, through an empty filtered page', async () => {
    const ff = scriptedFetch([
      { status: 200, body: { tweets: tweets('1', '2'), has_next_page: true, next_cursor: 'c1' } },
      { status: 200, body: { tweets: [], has_next_page: true, next_cursor: 'c2' } },
      { status: 200, body: { tweets: tweets('3'), has_next_page: false, next_cursor: '' } },
    ]);
    const ids: string[] = [];
    for await (const tw of list<{ id: string }>(t(ff.fetch))) ids.push(tw.id);
    expect(ids).toEqual(['1', '2', '3']);
    expect(ff.calls.map((c) => new URL(c.url).searchParams.get('cursor'))).toEqual([null, 'c1', 'c2']);
  });

  it('awaiting gives the first page, with its items and cursor', async () => {
    const ff = scriptedFetch([
      { status: 200, body: { tweets: tweets('1'), has_next_page: true, next_cursor: 'c1' } },
    ]);
    const page = await list(t(ff.fetch));
    expect(page.items).toHaveLength(1);
    expect(page.hasMore).toBe(true);
    expect(page.nextCursor).toBe('c1');
    expect(page.checkpoint()).toEqual({ operationId: 'searchTweets', params: { q: 'x' }, cursor: 'c1' });
  });

  it('style A: sends `after` and reads hasMore / nextCursor', async () => {
    const ff = scriptedFetch([
      { status: 200, body: { events: [{ id: 'e1' }], hasMore: true, nextCursor: 'n1' } },
      { status: 200, body: { events: [{ id: 'e2' }], hasMore: false } },
    ]);
    const all = await list<{ id: string }>(t(ff.fetch), listRouteA, { limit: 1 }).then((p) => p.toArray());
    expect(all.map((e) => e.id)).toEqual(['e1', 'e2']);
    expect(new URL(ff.calls[1]!.url).searchParams.get('after')).toBe('n1');
  });

  it('stops on has_next_page with an empty cursor', async () => {
    const ff = scriptedFetch([
      { status: 200, body: { tweets: tweets('1'), has_next_page: true, next_cursor: '' } },
    ]);
    const all = await (await list(t(ff.fetch))).toArray();
    expect(all).toHaveLength(1);
    expect(ff.calls).toHaveLength(1);
  });

  it('a repeated cursor ends the listing instead of looping, with a warning', async () => {
    const warn = vi.fn();
    const ff = scriptedFetch([
      { status: 200, body: { tweets: tweets('1'), has_next_page: true, next_cursor: 'same' } },
      { status: 200, body: { tweets: tweets('2'), has_next_page: true, next_cursor: 'same' } },
    ]);
    const all = await (await list(t(ff.fetch, warn))).toArray();
    expect(all.map((x) => (x as { id: string }).id)).toEqual(['1', '2']);
    expect(ff.calls).toHaveLength(2);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('repeated cursor'));
  });

  it('coverage_cursor_gone restarts without a cursor and skips items already yielded', async () => {
    const ff = scriptedFetch([
      { status: 200, body: { tweets: tweets('1', '2'), has_next_page: true, next_cursor: 'c1' } },
      { status: 410, body: { error: 'coverage_cursor_gone' } },
      { status: 200, body: { tweets: tweets('1', '2', '3'), has_next_page: true, next_cursor: 'd1' } },
      { status: 200, body: { tweets: tweets('4'), has_next_page: false, next_cursor: '' } },
    ]);
    const ids: string[] = [];
    for await (const tw of list<{ id: string }>(t(ff.fetch))) ids.push(tw.id);
    expect(ids).toEqual(['1', '2', '3', '4']);
    expect(new URL(ff.calls[2]!.url).searchParams.get('cursor')).toBeNull();
  });

  it('resumes from a checkpoint', async () => {
    const ff = scriptedFetch([
      { status: 200, body: { tweets: tweets('1'), has_next_page: true, next_cursor: 'c1' } },
      { status: 200, body: { tweets: tweets('2'), has_next_page: false, next_cursor: '' } },
    ]);
    const tr = t(ff.fetch);
    const first = await list(tr);
    const cp = JSON.parse(JSON.stringify(first.checkpoint()));
    const resumed = await PagePromise.from(() => fetchPage(tr, listRouteB, cp.params, {}, cp.cursor));
    expect(resumed.items).toEqual(tweets('2'));
    expect(new URL(ff.calls[1]!.url).searchParams.get('cursor')).toBe('c1');
  });

  it('.pages() yields pages', async () => {
    const ff = scriptedFetch([
      { status: 200, body: { tweets: tweets('1'), has_next_page: true, next_cursor: 'c1' } },
      { status: 200, body: { tweets: tweets('2'), has_next_page: false, next_cursor: '' } },
    ]);
    const sizes: number[] = [];
    for await (const p of list(t(ff.fetch)).pages()) sizes.push(p.items.length);
    expect(sizes).toEqual([1, 1]);
  });
});
