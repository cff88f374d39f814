import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { parseDrawOptions, run, runDraw } from '../../src/interactive/draws-run.js';
import { DrawResult, validShare } from '../../src/interactive/views/draw-result.js';
import { contextFor, fakeIo, jsonLines, mockClient, queryOf } from './helpers.js';

const URL_ = 'https://x.com/jack/status/20';
const DRAW = {
  id: '6b0e2c9a-1f4d-4a8e-b3c7-5d9f0a1e2b3c',
  tweetId: '20',
  totalEntries: 120,
  validEntries: 87,
  winners: [
    { position: 1, authorUsername: 'alice', tweetId: '101', isBackup: false },
    { position: 2, authorUsername: 'bob', tweetId: '102', isBackup: false },
    { position: 3, authorUsername: 'carol', tweetId: '103', isBackup: true },
  ],
};

describe('draws run', () => {
  it('sends the filters as the contract body and prints tab-separated lines when piped', async () => {
    const { client, requests } = mockClient({ createDraw: DRAW });
    const options = parseDrawOptions(
      {
        tweetUrl: URL_,
        winnerCount: '2',
        backupCount: 1,
        mustRetweet: true,
        mustFollowUsername: '@jack',
        requiredHashtags: ['#giveaway', '#win'],
        requiredKeywords: 'free,prize',
      },
      '/',
    );
    const io = fakeIo(false);
    expect(await runDraw(contextFor(client, io), options)).toBe(0);
    expect(await requests[0]!.json()).toEqual({
      tweetUrl: URL_,
      winnerCount: 2,
      backupCount: 1,
      mustRetweet: true,
      mustFollowUsername: '@jack',
      requiredHashtags: ['#giveaway', '#win'],
      requiredKeywords: ['free', 'prize'],
    });
    expect(io.stdout.lines()).toEqual([
      `draw\t${DRAW.id}`,
      'entries\t120',
      'valid\t87',
      'winner\t1\talice\t101',
      'winner\t2\tbob\t102',
      'backup\t3\tcarol\t103',
    ]);
  });

  it('renders entries, valid entries, winners and backups on a terminal', async () => {
    const { client } = mockClient({ createDraw: DRAW });
    const io = fakeIo(true);
    expect(await runDraw(contextFor(client, io), parseDrawOptions({ tweetUrl: URL_ }, '/'))).toBe(0);
    const out = io.stdout.text();
    expect(out).toContain(`Draw ${DRAW.id} for ${URL_}`);
    expect(out).toContain('Entries inspected: 120');
    expect(out).toContain('Valid entries:     87 of 120 (73%)');
    expect(out).toContain('Winners (2)');
    expect(out).toContain('@alice');
    expect(out).toContain('https://x.com/alice/status/101');
    expect(out).toContain('Backups (1)');
  });

  it('exports the entries to a file and prints the answer as JSON', async () => {
    const { client, requests } = mockClient({ createDraw: DRAW, exportDraw: 'position,author\n1,alice\n' });
    const dir = mkdtempSync(join(tmpdir(), 'xsvc-draw-'));
    const options = parseDrawOptions({ tweetUrl: URL_, export: 'entries.csv', exportType: 'entries' }, dir);
    const io = fakeIo(false);
    expect(await runDraw(contextFor(client, io, { json: true }), options)).toBe(0);
    const path = join(dir, 'entries.csv');
    expect(readFileSync(path, 'utf8')).toBe('position,author\n1,alice\n');
    expect(jsonLines(io.stdout)).toEqual([{ ...DRAW, export: { path, bytes: 24 } }]);
    expect(queryOf(requests[1]!)).toEqual({ format: 'csv', type: 'entries' });
  });

  it('rejects bad input with exit code 2 and the spec code, before any request', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{}, '<tweet-url>', 'missing_params'],
      [{ tweetUrl: 'https://example.com/x' }, '<tweet-url>', 'invalid_tweet_url'],
      [{ tweetUrl: URL_, winnerCount: 0 }, '--winner-count', 'invalid_input'],
      [{ tweetUrl: URL_, requiredHashtags: 'giveaway' }, '--required-hashtags', 'invalid_input'],
      [{ tweetUrl: URL_, exportType: 'all' }, '--export-type', 'invalid_input'],
    ];
    for (const [raw, flag, code] of cases) {
      const { client, requests } = mockClient();
      const io = fakeIo(false);
      expect(await run(contextFor(client, io, { json: true }), raw)).toBe(2);
      expect(jsonLines(io.stderr)).toEqual([{ error: code, flag, message: expect.any(String) }]);
      expect(requests).toHaveLength(0);
    }
  });
});

describe('DrawResult view', () => {
  it('says it is drawing, then that nobody won when no entry was valid', () => {
    expect(render(<DrawResult tweetUrl={URL_} color={false} />).lastFrame()).toContain('Drawing winners');
    const empty = { ...DRAW, validEntries: 0, winners: [] };
    const frame = render(<DrawResult tweetUrl={URL_} draw={empty} color={false} />).lastFrame();
    expect(frame).toContain('no valid entry: nobody won');
    expect(validShare(0, 0)).toBe('0 of 0 (0%)');
  });
});
