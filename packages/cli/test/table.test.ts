import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorCatalog, operations } from '@xsvc/sdk/contract';
import { describe, expect, it } from 'vitest';
import { commands } from '../src/table/commands.generated.js';
import { deriveCommand, kebab } from '../src/table/derive.js';
import { renderResourceTables, renderTable } from '../src/table/render.js';
import { renderErrorHints } from '../src/table/render-hints.js';
import { fullTree, loadTree } from '../src/table/tree.js';

const byPath = (path: string) => commands.find((c) => c.path.join(' ') === path)!;

describe('the command table', () => {
  it('is the one the contract generates (run `pnpm generate` when this fails)', () => {
    const committed = readFileSync(join(import.meta.dirname, '../src/table/commands.generated.ts'), 'utf8');
    expect(committed).toBe(renderTable(operations));
  });

  it('is split by resource as the contract generates it, with no file left over', () => {
    const dir = join(import.meta.dirname, '../src/table');
    const files = renderResourceTables(operations);
    for (const [file, text] of files)
      expect([file, readFileSync(join(dir, file), 'utf8')]).toEqual([file, text]);
    const committed = ['resources', 'checks'].flatMap((d) =>
      readdirSync(join(dir, d)).map((f) => `${d}/${f}`),
    );
    expect(committed.sort()).toEqual([...files.keys()].filter((f) => f.includes('/')).sort());
  });

  it("loads one resource's commands in full and names the others' actions only", async () => {
    const full = await fullTree();
    const one = await loadTree(['users']);
    expect([...one.children.keys()]).toEqual([...full.children.keys()]);
    expect(one.children.get('users')).toEqual(full.children.get('users'));
    const tweets = one.children.get('tweets')!;
    expect([...tweets.children.keys()]).toEqual([...full.children.get('tweets')!.children.keys()]);
    expect(tweets.children.get('get')!.spec).toBeUndefined();
    expect(full.children.get('tweets')!.children.get('get')!.spec).toEqual(byPath('tweets get'));
  });

  it('carries the error hints the contract generates (the billing codes)', () => {
    const committed = readFileSync(
      join(import.meta.dirname, '../src/table/error-hints.generated.ts'),
      'utf8',
    );
    expect(committed).toBe(renderErrorHints(errorCatalog));
    expect(committed).toContain('insufficient_credits: "the credits left do not cover this call"');
  });

  it('has one command per operation, at its SDK path in kebab-case, no two alike', () => {
    expect(commands.map((c) => c.op)).toEqual(operations.map((o) => o.id));
    const paths = commands.map((c) => c.path.join(' '));
    expect(new Set(paths).size).toBe(paths.length);
    expect(byPath('account set-x-identity').op).toBe('setXIdentity');
    expect(byPath('monitors keywords create').op).toBe('createKeywordMonitor');
  });

  it('takes path parameters, and the one obvious required parameter, as positional arguments', () => {
    expect(byPath('tweets search').args).toMatchObject([{ name: 'query', key: 'q', required: false }]);
    expect(byPath('users get').args).toMatchObject([{ name: 'user', key: 'id', required: true }]);
    expect(byPath('tweets get').args).toMatchObject([{ name: 'tweet', key: 'id' }]);
    expect(byPath('styles get').args).toMatchObject([{ name: 'style', key: 'id' }]);
    expect(byPath('users followers').args).toMatchObject([{ name: 'user', required: true }]);
    expect(byPath('drafts get').args).toMatchObject([{ name: 'id', required: true }]);
    expect(byPath('monitors create').args).toMatchObject([{ name: 'username' }]);
    expect(byPath('draws run').args).toMatchObject([{ name: 'tweet-url', key: 'tweetUrl' }]);
    expect(byPath('dms send').args).toMatchObject([{ name: 'user-id', key: 'userId' }]);
    // The acting account is never the obvious one; two required texts leave both as flags.
    expect(byPath('tweets create').args).toEqual([]);
    expect(byPath('support tickets create').args).toEqual([]);
    expect(byPath('guest-wallets create').args).toEqual([]);
  });

  it('types the flags from the schemas', () => {
    const flags = (path: string) => Object.fromEntries(byPath(path).flags.map((f) => [f.flag, f]));
    const search = flags('tweets search');
    expect(search['query-type']).toMatchObject({ type: 'enum', choices: ['Latest', 'Top'] });
    expect(search['verified-only']).toMatchObject({ type: 'boolean' });
    expect(search['min-faves']).toMatchObject({ type: 'number' });
    expect(flags('monitors create').events).toMatchObject({
      key: 'eventTypes',
      type: 'list',
      alias: 'event-types',
      required: true,
    });
    expect(flags('styles save').tweets).toMatchObject({ type: 'json' });
    expect(flags('media upload').file).toMatchObject({ type: 'file' });
    expect(flags('tweets batch').ids).toMatchObject({ type: 'list' });
  });

  it('leaves cursors and page sizes to --cursor and --limit, and renames parameters that clash with its own flags', () => {
    const search = byPath('tweets search');
    expect(search.flags.some((f) => ['cursor', 'limit'].includes(f.flag))).toBe(false);
    expect(search.pageSize).toEqual({ key: 'limit', min: 1, max: 10_000 });
    expect(byPath('events list').flags.some((f) => ['after', 'cursor', 'limit'].includes(f.key))).toBe(false);
    expect(byPath('extractions run').flags.find((f) => f.key === 'dry_run')?.flag).toBe('dry-run-param');
    // Not a listing: its `limit` and `cursor` are plain flags.
    expect(byPath('tweets viral-score').flags.map((f) => f.flag)).toEqual(
      expect.arrayContaining(['limit', 'cursor']),
    );
  });

  it('flattens a union of request shapes into flags (the schema still validates the whole)', () => {
    expect(byPath('compose run').flags.map((f) => f.key)).toEqual(
      expect.arrayContaining(['step', 'topic', 'draft']),
    );
    expect(byPath('compose run').flags.every((f) => !f.required)).toBe(true);
  });

  it('derives a new operation without any hand-written glue', () => {
    const base = operations.find((o) => o.id === 'getMonitor')!;
    const added = deriveCommand({
      ...base,
      id: 'getMonitorHealth',
      sdk: ['monitors', 'healthCheck'],
      path: '/api/v1/monitors/{id}/health',
    });
    expect(added).toMatchObject({
      path: ['monitors', 'health-check'],
      op: 'getMonitorHealth',
      args: [{ name: 'id' }],
    });
  });

  it('spells names in kebab-case', () => {
    expect(kebab('setXIdentity')).toBe('set-x-identity');
    expect(kebab('session_id')).toBe('session-id');
    expect(kebab('queryType')).toBe('query-type');
  });
});
