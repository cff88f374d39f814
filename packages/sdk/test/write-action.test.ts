import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Transport } from '../src/client/core.js';
import { WriteAction, WriteActionFailedError } from '../src/client/write-action.js';
import { scriptedFetch } from './helpers.js';

const action = (over: Record<string, unknown>) => ({
  object: 'x_write_action',
  id: 'wa_1',
  writeActionId: 'wa_1',
  action: 'create_tweet',
  status: 'accepted',
  terminal: false,
  retryable: false,
  safeToRetry: false,
  statusUrl: '/api/v1/x/write-actions/wa_1',
  pollAfterMs: 500,
  nextAction: { type: 'poll' },
  ...over,
});

describe('WriteAction', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('polls statusUrl honouring pollAfterMs until terminal, reporting progress', async () => {
    const ff = scriptedFetch([
      { status: 202, body: action({ status: 'dispatching', pollAfterMs: 2_000 }) },
      { status: 200, body: action({ status: 'success', terminal: true, tweetId: '99', pollAfterMs: null }) },
    ]);
    const tr = new Transport({ apiKey: 'svc_x', baseUrl: 'http://svc.test', fetch: ff.fetch });
    const wa = new WriteAction(tr, action({}) as never);
    const seen: string[] = [];
    const p = wa.wait({ onProgress: (a) => seen.push(a.status) });
    await vi.advanceTimersByTimeAsync(499);
    expect(ff.calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(ff.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2_000);
    await expect(p).resolves.toMatchObject({ status: 'success', tweetId: '99' });
    expect(seen).toEqual(['dispatching', 'success']);
    expect(ff.calls[0]!.url).toBe('http://svc.test/api/v1/x/write-actions/wa_1');
    expect(ff.calls.every((c) => c.method === 'GET')).toBe(true);
  });

  it('never re-sends: a failed write asking to verify the result surfaces that instruction', async () => {
    const ff = scriptedFetch([
      {
        status: 200,
        body: action({
          status: 'failed',
          terminal: true,
          nextAction: { type: 'verify_result' },
          error: 'x_write_ambiguous',
        }),
      },
    ]);
    const tr = new Transport({ apiKey: 'svc_x', baseUrl: 'http://svc.test', fetch: ff.fetch });
    const wa = new WriteAction(tr, action({}) as never);
    const p = wa.wait().catch((e: unknown) => e);
    await vi.runAllTimersAsync();
    const err = (await p) as WriteActionFailedError;
    expect(err).toBeInstanceOf(WriteActionFailedError);
    expect(err.message).toContain('verify the result');
    expect(err.action.nextAction).toEqual({ type: 'verify_result' });
    expect(ff.calls).toHaveLength(1);
  });

  it('resolves at once for an action that is already terminal', async () => {
    const tr = new Transport({ apiKey: 'svc_x', baseUrl: 'http://svc.test', fetch: scriptedFetch([]).fetch });
    const wa = new WriteAction(tr, action({ status: 'success', terminal: true }) as never);
    await expect(wa.wait()).resolves.toMatchObject({ status: 'success' });
  });

  it('can be resumed from its id', async () => {
    const ff = scriptedFetch([{ status: 202, body: action({ status: 'pending_confirmation' }) }]);
    const tr = new Transport({ apiKey: 'svc_x', baseUrl: 'http://svc.test', fetch: ff.fetch });
    const wa = await WriteAction.resume(tr, 'wa_1');
    expect(wa.status).toBe('pending_confirmation');
    expect(wa.terminal).toBe(false);
  });
});
