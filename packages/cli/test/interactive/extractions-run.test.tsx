import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import {
  describeTarget,
  parseExtractionOptions,
  run,
  runExtraction,
} from '../../src/interactive/extractions-run.js';
import { ExtractionProgress } from '../../src/interactive/views/extraction-progress.js';
import { contextFor, fakeIo, jsonLines, mockClient, queryOf } from './helpers.js';

const JOB_ID = '3f1c1a4e-8d6b-4c57-9f0e-2b7d5a9c6e10';

function job(status: string, totalResults: number, extra: Record<string, unknown> = {}) {
  return {
    id: JOB_ID,
    toolType: 'follower_explorer',
    status,
    totalResults,
    targetUsername: 'jack',
    createdAt: '2026-04-29T12:00:00.000Z',
    ...extra,
  };
}

/** Mocks a job that runs for `runningPolls` polls and then ends in `final`. */
function extractionMocks(final: ReturnType<typeof job>, runningPolls = 1, file = 'id,xUserId\n1,10\n') {
  let polls = 0;
  return mockClient({
    createExtraction: { id: JOB_ID, toolType: 'follower_explorer', status: 'running' },
    getExtraction: () => {
      polls++;
      const current = polls <= runningPolls ? job('running', polls * 5) : final;
      return { job: current, results: [], hasMore: false };
    },
    exportExtraction: file,
  });
}

const tmp = () => mkdtempSync(join(tmpdir(), 'xsvc-cli-'));

describe('extractions run', () => {
  it('waits, exports in the format of the file extension and prints the path when piped', async () => {
    const { client, requests } = extractionMocks(
      job('completed', 12, { completedAt: '2026-04-29T12:01:00.000Z' }),
      2,
    );
    const dir = tmp();
    const options = parseExtractionOptions(
      { tool: 'follower_explorer', targetUsername: '@jack', resultsLimit: '500', export: 'out.csv' },
      { XSVC_POLL_INTERVAL_MS: '0' },
      dir,
    );
    const io = fakeIo(false);
    expect(await runExtraction(contextFor(client, io), options)).toBe(0);
    const path = join(dir, 'out.csv');
    expect(io.stdout.text()).toBe(`${path}\n`);
    expect(readFileSync(path, 'utf8')).toBe('id,xUserId\n1,10\n');
    const create = requests.find((r) => r.method === 'POST')!;
    expect(await create.json()).toEqual({
      toolType: 'follower_explorer',
      targetUsername: '@jack',
      resultsLimit: 500,
    });
    const exported = requests.find((r) => r.url.includes('/export'))!;
    expect(queryOf(exported)).toEqual({ format: 'csv' });
    expect(requests.filter((r) => new URL(r.url).pathname === `/api/v1/extractions/${JOB_ID}`)).toHaveLength(
      3,
    );
  });

  it('prints the job and the export as JSON with --json', async () => {
    const { client } = extractionMocks(job('completed', 3), 0, '{"rows":[]}');
    const dir = tmp();
    const options = parseExtractionOptions(
      { tool: 'tweet_search_extractor', searchQuery: 'ai agents', minFaves: 10, format: 'json' },
      { XSVC_POLL_INTERVAL_MS: '0' },
      dir,
    );
    const io = fakeIo(false);
    expect(await runExtraction(contextFor(client, io, { json: true }), options)).toBe(0);
    const [line] = jsonLines(io.stdout) as { job: { status: string }; export: Record<string, unknown> }[];
    expect(line!.job.status).toBe('completed');
    expect(line!.export).toEqual({ path: join(dir, 'extraction.json'), format: 'json', bytes: 11 });
  });

  it('prints only the job id without --wait', async () => {
    const { client, requests } = extractionMocks(job('completed', 1));
    const io = fakeIo(false);
    const options = parseExtractionOptions({ tool: 'reply_extractor', targetTweetId: '20' }, {}, tmp());
    expect(options.wait).toBe(false);
    expect(await runExtraction(contextFor(client, io), options)).toBe(0);
    expect(io.stdout.text()).toBe(`${JOB_ID}\n`);
    expect(requests).toHaveLength(1);
  });

  it('exits 1 with the reason when the job fails', async () => {
    const { client } = extractionMocks(job('failed', 4, { errorMessage: 'user_not_found' }), 0);
    const io = fakeIo(false);
    const options = parseExtractionOptions(
      { tool: 'follower_explorer', targetUsername: 'jack', wait: true },
      { XSVC_POLL_INTERVAL_MS: '0' },
      tmp(),
    );
    expect(await runExtraction(contextFor(client, io), options)).toBe(1);
    expect(io.stderr.text()).toContain(`extraction ${JOB_ID} failed: user_not_found`);
  });

  it('exits 130 and leaves the job running when interrupted while waiting', async () => {
    const controller = new AbortController();
    let polls = 0;
    const { client } = mockClient({
      createExtraction: { id: JOB_ID, toolType: 'follower_explorer', status: 'running' },
      getExtraction: () => {
        if (++polls === 2) controller.abort();
        return { job: job('running', polls), results: [], hasMore: false };
      },
    });
    const io = fakeIo(false);
    const options = parseExtractionOptions(
      { tool: 'follower_explorer', targetUsername: 'jack', wait: true },
      { XSVC_POLL_INTERVAL_MS: '0' },
      tmp(),
    );
    expect(await runExtraction(contextFor(client, io, { signal: controller.signal }), options)).toBe(130);
    expect(io.stderr.text()).toContain(`xsvc extractions get ${JOB_ID}`);
  });

  it('shows progress and the saved file in the terminal view', async () => {
    const { client } = extractionMocks(job('completed', 1234), 1);
    const io = fakeIo(true);
    const dir = tmp();
    const options = parseExtractionOptions(
      { tool: 'follower_explorer', targetUsername: 'jack', export: 'f.xlsx' },
      { XSVC_POLL_INTERVAL_MS: '0' },
      dir,
    );
    expect(await runExtraction(contextFor(client, io), options)).toBe(0);
    const out = io.stdout.text();
    expect(out).toContain('follower_explorer @jack');
    expect(out).toContain('completed · 1,234 results');
    expect(out).toContain(`saved xlsx (16 bytes) to ${join(dir, 'f.xlsx')}`);
  });

  it('rejects bad input with exit code 2 naming the flag, before any request', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ tool: 'follower_explorer' }, '--target-username', 'missing_params'],
      [{ tool: 'nope' }, '<tool>', 'invalid_tool_type'],
      [{}, '<tool>', 'missing_params'],
      [
        { tool: 'reply_extractor', targetTweetId: '1', resultsLimit: 'many' },
        '--results-limit',
        'invalid_input',
      ],
      [{ tool: 'reply_extractor', targetTweetId: '1', export: 'out.docx' }, '--format', 'invalid_format'],
      [{ tool: 'reply_extractor', targetTweetId: '1', format: 'docx' }, '--format', 'invalid_format'],
      [
        { tool: 'reply_extractor', targetTweetId: '1', export: '/no/such/dir/out.csv' },
        '--export',
        'invalid_input',
      ],
      [
        { tool: 'tweet_search_extractor', searchQuery: 'x', mediaType: 'audio' },
        '--media-type',
        'invalid_input',
      ],
    ];
    for (const [raw, flag, code] of cases) {
      const { client, requests } = mockClient();
      const io = fakeIo(false);
      expect(await run(contextFor(client, io, { json: true }), raw)).toBe(2);
      expect(jsonLines(io.stderr)).toEqual([{ error: code, flag, message: expect.stringContaining(flag) }]);
      expect(requests).toHaveLength(0);
    }
  });

  it('exports into a directory named by --export, with the format of --format', () => {
    const dir = tmp();
    const options = parseExtractionOptions(
      { tool: 'reply_extractor', targetTweetId: '1', export: '.', format: 'md-document' },
      {},
      dir,
    );
    expect(options.exportTo).toEqual({ path: join(dir, 'extraction.md'), format: 'md-document' });
    expect(options.wait).toBe(true);
    expect(() =>
      parseExtractionOptions({ tool: 'reply_extractor', targetTweetId: '1', export: '.' }, {}, dir),
    ).toThrow('--format');
  });

  it('describes targets for the view', () => {
    expect(describeTarget({ toolType: 'follower_explorer', targetUsername: '@jack' })).toBe('@jack');
    expect(describeTarget({ toolType: 'people_search', searchQuery: 'ai' })).toBe('"ai"');
    expect(describeTarget({ toolType: 'list_member_extractor', targetListId: '77' })).toBe('list 77');
    expect(describeTarget({ toolType: 'reply_extractor', targetTweetId: '20' })).toBe('tweet 20');
  });
});

describe('ExtractionProgress view', () => {
  it('shows a spinner while running and the error of a failed job', () => {
    const base = {
      jobId: 'j1',
      tool: 'reply_extractor',
      target: 'tweet 20',
      polls: 3,
      color: false,
    } as const;
    const running = render(<ExtractionProgress {...base} status="running" totalResults={1} />);
    expect(running.lastFrame()).toContain('⠸ reply_extractor tweet 20 (job j1)');
    expect(running.lastFrame()).toContain('running · 1 result');
    const failed = render(
      <ExtractionProgress {...base} status="failed" totalResults={0} error="failed: boom" />,
    );
    expect(failed.lastFrame()).toContain('✗ reply_extractor');
    expect(failed.lastFrame()).toContain('failed: boom');
  });
});
