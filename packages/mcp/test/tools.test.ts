import { operations } from '@xsvc/sdk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AREAS } from '../src/areas.js';
import { getCatalog } from '../src/catalog.js';
import { describeTools, exploreCatalog, TOOLSETS } from '../src/index.js';
import { api, connect, structured } from './helpers.js';

beforeAll(() => api.listen({ onUnhandledRequest: 'error' }));
afterAll(() => api.close());

const READ_TOOLS = [
  'tweets',
  'users',
  'lists',
  'communities',
  'trends',
  'monitors',
  'events',
  'webhooks',
  'extractions',
  'draws',
  'compose',
  'write_actions',
  'x_accounts',
  'account',
  'support',
  'media',
];

describe('tools/list', () => {
  it('is read-only by default: one read tool per toolset, and explore', async () => {
    const { mcp, close } = await connect();
    const { tools } = await mcp.listTools();
    await close();
    expect(tools.map((t) => t.name)).toEqual([...READ_TOOLS, 'explore']);
    for (const t of tools) {
      expect(t.annotations?.readOnlyHint, t.name).toBe(true);
      expect(t.annotations?.destructiveHint, t.name).toBe(false);
    }
  });

  it('adds the write tools when writes are enabled, with truthful annotations', async () => {
    const { mcp, close } = await connect({ enableWrites: true });
    const { tools } = await mcp.listTools();
    await close();
    const grouped = tools.filter((t) => t.name !== 'explore');
    expect(grouped.length).toBeGreaterThanOrEqual(15);
    expect(grouped.length).toBeLessThanOrEqual(25);
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('x_write')?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(byName.get('extractions_write')?.annotations?.destructiveHint).toBe(false);
    expect(byName.get('draws_write')?.annotations?.destructiveHint).toBe(false);
    expect(byName.get('account')?.annotations?.openWorldHint).toBe(false);
    expect(byName.get('tweets')?.annotations?.openWorldHint).toBe(true);
    for (const t of grouped) {
      const write = t.name.endsWith('_write');
      expect(t.annotations?.readOnlyHint, t.name).toBe(!write);
    }
  });

  it('--read-only wins over --enable-writes', async () => {
    expect(describeTools({ enableWrites: true, readOnly: true }).map((t) => t.name)).toEqual([
      ...READ_TOOLS,
      'explore',
    ]);
  });

  it('serves only the toolsets asked for', () => {
    expect(describeTools({ toolsets: ['tweets'] }).map((t) => t.name)).toEqual(['tweets', 'explore']);
    expect(
      describeTools({ toolsets: ['writes', 'monitors'], enableWrites: true }).map((t) => t.name),
    ).toEqual(['monitors', 'monitors_write', 'write_actions', 'x_write', 'explore']);
    expect(() => describeTools({ toolsets: ['tweets', 'nope'] })).toThrow(/unknown toolset\(s\): nope/);
    expect(AREAS.map((a) => a.name)).toEqual(TOOLSETS);
  });

  it('describeTools gives exactly what tools/list answers', async () => {
    const { mcp, close } = await connect({ enableWrites: true });
    const { tools } = await mcp.listTools();
    await close();
    expect(JSON.parse(JSON.stringify(tools))).toEqual(
      JSON.parse(JSON.stringify(describeTools({ enableWrites: true }))),
    );
  });

  it('keeps composition keywords and references off the root of every input schema', () => {
    // Several model APIs refuse a tool whose input schema has anyOf/oneOf/allOf at the root, and many MCP
    // clients cannot resolve $ref: either would drop the tool, or break the whole session.
    for (const t of describeTools({ enableWrites: true })) {
      expect(t.inputSchema.type, t.name).toBe('object');
      for (const k of ['anyOf', 'oneOf', 'allOf', 'not', 'if'])
        expect(t.inputSchema[k], `${t.name}.${k}`).toBeUndefined();
      expect(JSON.stringify(t.inputSchema), t.name).not.toContain('$ref');
    }
  });

  it('serves every operation of the contract, or says why not', () => {
    const { entries, tools } = getCatalog();
    expect(entries).toHaveLength(operations.length);
    for (const e of entries)
      expect(e.tool !== undefined || (e.withheld ?? '').length > 0, e.op.id).toBe(true);
    const served = tools.reduce((n, t) => n + t.actions.size, 0);
    expect(served).toBe(entries.filter((e) => e.tool).length);
    // Every durable platform write is served by x_write.
    const writes = operations.filter((o) => o.writeAction).map((o) => o.writeAction);
    const listed = exploreCatalog({ limit: Number.POSITIVE_INFINITY }, { enableWrites: true });
    expect(listed.total).toBe(operations.length);
    expect(listed.operations.filter((o) => o.available)).toHaveLength(served);
    expect([...(tools.find((t) => t.name === 'x_write')?.actions.keys() ?? [])].sort()).toEqual(
      writes.sort(),
    );
  });
});

/**
 * Every tool's name, description, annotations and input schema, as reviewed JSON: a change to the contract
 * (a parameter, a description, a new operation) shows in the diff of this file.
 */
describe('tool schemas', () => {
  it('match the reviewed snapshot (writes enabled: every tool)', async () => {
    const tools = describeTools({ enableWrites: true }).map((t) => ({
      name: t.name,
      description: t.description,
      annotations: t.annotations,
      inputSchema: t.inputSchema,
    }));
    await expect(`${JSON.stringify(tools, null, 2)}\n`).toMatchFileSnapshot('./__snapshots__/tools.json');
  });

  it('share one small output envelope', async () => {
    const outputs = Object.fromEntries(
      describeTools({ toolsets: ['writes'], enableWrites: true }).map((t) => [t.name, t.outputSchema]),
    );
    await expect(`${JSON.stringify(outputs, null, 2)}\n`).toMatchFileSnapshot('./__snapshots__/outputs.json');
  });
});

type Found = { total: number; operations: Record<string, unknown>[] };

async function explore(args: Record<string, unknown>, options = {}): Promise<Found> {
  const { mcp, close } = await connect(options);
  const result = await mcp.callTool({ name: 'explore', arguments: args });
  await close();
  expect(result.isError).toBeFalsy();
  return structured(result) as unknown as Found;
}

describe('explore', () => {
  it('finds an operation by words and answers its tool, action and schemas', async () => {
    const found = await explore({ query: 'search tweets', limit: 1 });
    expect(found.total).toBeGreaterThan(1);
    const [op] = found.operations;
    expect(op).toMatchObject({
      operation: 'searchTweets',
      tool: 'tweets',
      action: 'search',
      method: 'GET',
      available: true,
    });
    const params = op?.params as { properties: Record<string, unknown>; required: string[] };
    expect(params.required).toEqual(['q']);
    expect(params.properties).toHaveProperty('minFaves'); // filters inline here
    expect(params.properties).toHaveProperty('cursor');
    expect(op?.response).toMatchObject({ type: 'object' });
    expect(op?.description).toEqual(expect.any(String));
  });

  it('filters by tag and method, and answers only params schemas for many results', async () => {
    const found = await explore({ tag: 'x_write', method: 'DELETE', limit: 20 }, { enableWrites: true });
    expect(found.operations.map((o) => o.action).sort()).toEqual(
      ['delete_community', 'delete_tweet', 'leave_community', 'unfollow', 'unlike', 'unretweet'].sort(),
    );
    for (const o of found.operations) {
      expect(o).toMatchObject({ tool: 'x_write', write: true, available: true });
      expect(o).not.toHaveProperty('response');
    }
  });

  it('says why an operation is not served', async () => {
    const found = await explore({ query: 'createApiKey' });
    expect(found.operations[0]).toMatchObject({
      operation: 'createApiKey',
      tool: null,
      available: false,
      unavailable: expect.stringMatching(/credentials/),
    });
    const off = await explore({ query: 'followers', tag: 'users' }, { toolsets: ['tweets'] });
    expect(off.operations[0]).toMatchObject({
      available: false,
      unavailable: expect.stringMatching(/toolset users/),
    });
  });
});
