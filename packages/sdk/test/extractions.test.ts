import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ExtractionFailedError, Xsvc } from '../src/index.js';
import { scriptedFetch } from './helpers.js';

const job = (status: string, extra: Record<string, unknown> = {}) => ({
  job: {
    id: 'ext_1',
    toolType: 'follower_explorer',
    status,
    totalResults: 2,
    createdAt: '2026-04-29T12:00:00.000Z',
    targetUsername: 'jack',
    ...extra,
  },
  results: [],
  hasMore: false,
});

describe('extractions: run, wait, results, export', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs, polls until completed at the given interval, iterates results and exports', async () => {
    const ff = scriptedFetch([
      { status: 202, body: { id: 'ext_1', toolType: 'follower_explorer', status: 'running' } },
      { status: 200, body: job('running', { totalResults: 1 }) },
      { status: 200, body: job('completed', { completedAt: '2026-04-29T12:00:05.000Z' }) },
      {
        status: 200,
        body: {
          job: job('completed').job,
          results: [{ id: '1', xUserId: '10' }],
          hasMore: true,
          nextCursor: '1',
        },
      },
      {
        status: 200,
        body: { job: job('completed').job, results: [{ id: '2', xUserId: '11' }], hasMore: false },
      },
      { status: 200, body: 'id,xUserId\n1,10\n2,11\n', headers: { 'content-type': 'text/csv' } },
    ]);
    const client = new Xsvc({ apiKey: 'svc_x', baseUrl: 'http://svc.test', fetch: ff.fetch });
    const run = await client.extractions.run({ toolType: 'follower_explorer', targetUsername: 'jack' });
    expect(run.id).toBe('ext_1');
    const progress: number[] = [];
    const done = run.wait({ pollIntervalMs: 2_000, onProgress: (j) => progress.push(j.totalResults) });
    await vi.advanceTimersByTimeAsync(0);
    expect(ff.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(2_000);
    await expect(done).resolves.toMatchObject({ status: 'completed' });
    expect(progress).toEqual([1, 2]);
    const rows: string[] = [];
    for await (const r of run.results()) rows.push(r.id);
    expect(rows).toEqual(['1', '2']);
    const file = await run.export({ format: 'csv' });
    expect(await file.text()).toContain('1,10');
    expect(new URL(ff.calls[5]!.url).pathname).toBe('/api/v1/extractions/ext_1/export');
    expect(new URL(ff.calls[5]!.url).searchParams.get('format')).toBe('csv');
  });

  it('throws ExtractionFailedError with the job when the job failed', async () => {
    const ff = scriptedFetch([{ status: 200, body: job('failed', { errorMessage: 'target is protected' }) }]);
    const client = new Xsvc({ apiKey: 'svc_x', baseUrl: 'http://svc.test', fetch: ff.fetch });
    const err = await client.extractions
      .job('ext_1')
      .wait()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExtractionFailedError);
    expect((err as ExtractionFailedError).job.errorMessage).toBe('target is protected');
  });

  it('stops waiting when the signal aborts', async () => {
    const ff = scriptedFetch([{ status: 200, body: job('running') }]);
    const client = new Xsvc({ apiKey: 'svc_x', baseUrl: 'http://svc.test', fetch: ff.fetch });
    const ac = new AbortController();
    const p = client.extractions
      .job('ext_1')
      .wait({ signal: ac.signal, pollIntervalMs: 10_000 })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(100);
    ac.abort();
    expect(((await p) as Error).name).toBe('AbortError');
  });
});
