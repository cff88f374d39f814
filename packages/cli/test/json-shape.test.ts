import { describe, expect, it } from 'vitest';
import { splitJsonArgs } from '../src/program/json-args.js';
import { fullTree } from '../src/table/tree.js';
import { cli, recordRequests, serveMockedApi } from './helpers.js';

serveMockedApi();

const noInteractive = new Map<string, number>();
const tree = await fullTree();

describe('--json <fields>: taken out of the command line', () => {
  it('takes fields after a complete command, never a positional the command still needs', () => {
    expect(splitJsonArgs(['users', 'get', 'jack', '--json', 'id,name'], noInteractive, tree)).toEqual({
      argv: ['users', 'get', 'jack', '--json'],
      fields: 'id,name',
    });
    expect(splitJsonArgs(['users', 'get', '--json', 'jack'], noInteractive, tree)).toEqual({
      argv: ['users', 'get', '--json', 'jack'],
    });
    expect(splitJsonArgs(['users', 'get', '--json', 'id', 'jack'], noInteractive, tree).fields).toBe('id');
    expect(
      splitJsonArgs(['tweets', 'search', '--limit', '5', '--json', 'q'], noInteractive, tree).fields,
    ).toBe(undefined);
    expect(splitJsonArgs(['--json', 'tweets', 'get', '1'], noInteractive, tree).fields).toBe(undefined);
    expect(splitJsonArgs(['users', 'get', '--json=id', 'jack'], noInteractive, tree).fields).toBe('id');
    expect(splitJsonArgs(['profiles', 'list', '--json', 'name'], noInteractive, tree).fields).toBe('name');
    expect(splitJsonArgs(['users', 'get', 'x', '--jq', '.id'], noInteractive, tree).jq).toBe('.id');
  });
});

describe('one JSON shape, fields and --jq', () => {
  it('--json id,username keeps those fields of the answer', async () => {
    const res = await cli(['users', 'get', 'jack', '--json', 'id,username,nope']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.json()).toEqual({ id: '1790000000000000001', username: 'jack', nope: null });
  });

  it('on a listing, the fields are those of each item, in the same page object', async () => {
    const res = await cli(['users', 'followers', 'jack', '--json', 'id,username', '--limit', '2']);
    expect(res.code, res.stderr).toBe(0);
    const page = res.json<{ users: object[]; has_next_page: boolean }>();
    expect(page.users.length).toBeGreaterThan(0);
    for (const u of page.users) expect(Object.keys(u)).toEqual(['id', 'username']);
    expect(page).toHaveProperty('has_next_page');
  });

  it('--jq filters the JSON, strings raw, one output per line; it implies --json', async () => {
    const res = await cli(['users', 'followers', 'jack', '--jq', '.users[] | .username']);
    expect(res.code, res.stderr).toBe(0);
    const lines = res.stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    expect(lines[0]).not.toMatch(/^"/);
    const obj = await cli(['users', 'get', 'jack', '--jq', '{id, f: .followers}']);
    expect(obj.stdout.trim()).toBe('{"id":"1790000000000000001","f":1200}');
  });

  it('a bad --jq filter is a usage error before anything is sent', async () => {
    const seen = recordRequests();
    const res = await cli(['users', 'get', 'jack', '--jq', '.[', '--json']);
    expect(res.code).toBe(2);
    expect(JSON.parse(res.stderr)).toMatchObject({ error: 'invalid_input', flag: '--jq' });
    expect(seen).toHaveLength(0);
  });

  it('a bad field list is a usage error', async () => {
    const res = await cli(['users', 'get', 'jack', '--json=id;rm']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('not a list of fields');
  });
});
