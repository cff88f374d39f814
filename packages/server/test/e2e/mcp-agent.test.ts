/**
 * An agent's session with each toolset of the built `xsvc-mcp` (over stdio, as MCP hosts run it), against
 * this server listening on the simulated platform: search the tweets of an account, monitor that account,
 * send its events to a webhook. The agent is scripted, but it learns every operation from the server as a
 * model would: it asks `explore` for the words of each step and calls what explore names (a grouped tool's
 * action, or an operation id through `call`). The task is complete when a new tweet of the account reaches
 * the receiver as a verified, signed delivery.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapOwner, createServer, parseConfig, type XsvcServer } from '../../src/index.js';
import { type Receiver, startReceiver } from '../webhooks/helpers.js';
import { structured, textOf } from './mcp-results.js';

const BIN = join(dirname(createRequire(import.meta.url).resolve('@xsvc/mcp/package.json')), 'dist', 'bin.js');
const KEY = `svc_${randomBytes(32).toString('hex')}`;

let server: XsvcServer;
let base: string;
let receiver: Receiver;
const clients: Client[] = [];

beforeAll(async () => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build the package first (pnpm test does).`);
  const config = parseConfig({
    databaseUrl: ':memory:',
    seedSize: 'tiny',
    logLevel: 'silent',
    keyFile: '',
    bootstrapApiKey: KEY,
    allowLoopbackWebhooks: true,
  });
  server = await createServer(config);
  await bootstrapOwner(server.services.database, config, Date.now());
  base = await server.app.listen({ port: 0, host: '127.0.0.1' });
  receiver = await startReceiver(() => Date.now());
}, 60_000);

afterAll(async () => {
  for (const c of clients) await c.close();
  await receiver?.close();
  await server?.close();
});

async function connect(args: readonly string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, ...args],
    env: { ...getDefaultEnvironment(), XSVC_BASE_URL: base, XSVC_API_KEY: KEY },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'scripted-agent', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

interface Found {
  readonly operation: string;
  readonly tool: string | null;
  readonly action: string | null;
  readonly available: boolean;
}

/** A step of the agent: what it asks `explore`, and the params it then sends. */
interface Step {
  readonly words: string;
  readonly operation: string;
  readonly params: (previous: Record<string, unknown>) => Record<string, unknown>;
}

/** Calls what explore found: the grouped tool's action, or the operation through `call`. */
type Invoke = (found: Found, params: Record<string, unknown>) => Promise<Record<string, unknown>>;

async function runTask(agent: Client, invoke: Invoke, username: string): Promise<string[]> {
  const steps: Step[] = [
    { words: 'search tweets', operation: 'searchTweets', params: () => ({ q: `from:${username}` }) },
    {
      words: 'create monitor',
      operation: 'createMonitor',
      params: () => ({ username, eventTypes: ['tweet.new'] }),
    },
    {
      words: 'create webhook',
      operation: 'createWebhook',
      params: () => ({ url: receiver.url, eventTypes: ['tweet.new'] }),
    },
  ];
  const used: string[] = [];
  let previous: Record<string, unknown> = {};
  for (const step of steps) {
    const explored = await agent.callTool({ name: 'explore', arguments: { query: step.words } });
    expect(explored.isError, textOf(explored)).toBeFalsy();
    const found = (structured(explored).operations as Found[]).find((o) => o.available);
    // The first available operation explore offers is the one the step needs.
    expect(found?.operation).toBe(step.operation);
    const data = await invoke(found!, step.params(previous));
    used.push(found!.operation);
    previous = data;
    if (step.operation === 'searchTweets') {
      const tweets = (data as { tweets: { author?: { username: string } }[] }).tweets;
      expect(tweets.length).toBeGreaterThan(0);
    }
    if (step.operation === 'createWebhook') receiver.secret = String(data.secret);
  }
  return used;
}

function invoker(agent: Client, mode: 'grouped' | 'code'): Invoke {
  return async (found, params) => {
    const result =
      mode === 'code'
        ? await agent.callTool({ name: 'call', arguments: { operation: found.operation, params } })
        : await agent.callTool({ name: found.tool!, arguments: { action: found.action!, params } });
    expect(result.isError, textOf(result)).toBeFalsy();
    return structured(result).data as Record<string, unknown>;
  };
}

/** Waits for a verified delivery of a new tweet with this text. */
async function delivered(text: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (
    !receiver.received.some(
      (r) => r.event?.eventType === 'tweet.new' && (r.event.data as { text?: string }).text === text,
    )
  ) {
    if (Date.now() > deadline) throw new Error(`no verified delivery of "${text}"`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function simTweet(author: string, text: string): Promise<void> {
  const res = await fetch(`${base}/sim/tweets`, {
    method: 'POST',
    headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ author, text }),
  });
  expect(res.status).toBe(201);
}

describe('an agent completes search → monitor → webhook with each toolset', () => {
  it('with the grouped tools (the default toolsets, writes enabled)', async () => {
    const agent = await connect(['--enable-writes']);
    const { tools } = await agent.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['tweets', 'monitors_write', 'explore']));
    expect(tools.map((t) => t.name)).not.toContain('call');
    const used = await runTask(agent, invoker(agent, 'grouped'), 'jack');
    expect(used).toEqual(['searchTweets', 'createMonitor', 'createWebhook']);
    await simTweet('jack', 'agent task, grouped tools');
    await delivered('agent task, grouped tools');
  }, 60_000);

  it('with the code toolset (explore and call only)', async () => {
    const agent = await connect(['--toolsets', 'code', '--enable-writes']);
    const { tools } = await agent.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['call', 'explore']);
    const used = await runTask(agent, invoker(agent, 'code'), 'newsroom');
    expect(used).toEqual(['searchTweets', 'createMonitor', 'createWebhook']);
    await simTweet('newsroom', 'agent task, code toolset');
    await delivered('agent task, code toolset');
  }, 60_000);

  it('call refuses unknown operations and writes that are not enabled, as tool errors', async () => {
    const agent = await connect(['--toolsets', 'code']);
    const unknown = await agent.callTool({ name: 'call', arguments: { operation: 'nope' } });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('not an operation id');
    const write = await agent.callTool({
      name: 'call',
      arguments: { operation: 'createMonitor', params: { username: 'jack', eventTypes: ['tweet.new'] } },
    });
    expect(write.isError).toBe(true);
    expect(textOf(write)).toContain('writes are disabled');
    const invalid = await agent.callTool({
      name: 'call',
      arguments: { operation: 'lookupTweet', params: { nope: 1 } },
    });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toContain('lookupTweet');
  }, 30_000);
});
