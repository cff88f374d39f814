import { describe, expect, it } from 'vitest';
import { interactiveCommands } from '../src/interactive/index.js';
import type { InteractiveCommandSpec, InteractiveContext, RawOptions } from '../src/interactive/types.js';
import { api, BASE, cli, KEY, recordRequests, serveMockedApi } from './helpers.js';

serveMockedApi();

/** A fake interactive command that records how it was called. */
function fake(name: string, extra: Partial<InteractiveCommandSpec> = {}, code = 0) {
  const calls: { ctx: InteractiveContext; raw: RawOptions }[] = [];
  let loads = 0;
  const spec: InteractiveCommandSpec = {
    name,
    description: `The ${name} command.`,
    arguments: [],
    options: [],
    examples: [name],
    load: async () => {
      loads++;
      return {
        run: async (ctx, raw) => {
          calls.push({ ctx, raw });
          return code;
        },
      };
    },
    ...extra,
  };
  return { spec, calls, loads: () => loads };
}

describe('interactive commands', () => {
  it('are registered with their arguments and options, and get a context for the profile', async () => {
    const watch = fake('monitors watch', {
      options: [
        { flag: '--monitor <id>', key: 'monitor', type: 'string', description: 'Monitor.', required: false },
        { flag: '--max <n>', key: 'max', type: 'number', description: 'Most.', required: false },
        {
          flag: '--events <types...>',
          key: 'events',
          type: 'string[]',
          description: 'Types.',
          required: false,
        },
      ],
    });
    const res = await cli(
      ['monitors', 'watch', '--monitor', '7', '--max', '3', '--events', 'a', 'b', '--json'],
      {
        interactive: [watch.spec],
      },
    );
    expect(res.code).toBe(0);
    expect(watch.calls).toHaveLength(1);
    const { ctx, raw } = watch.calls[0]!;
    expect(raw).toEqual({ monitor: '7', max: 3, events: ['a', 'b'] });
    expect(ctx.json).toBe(true);
    expect(ctx.baseUrl).toBe(BASE);
    expect(ctx.io.interactive).toBe(false);
    expect(ctx.io.color).toBe(false);
    expect(ctx.signal.aborted).toBe(false);
    expect(ctx.client.baseUrl).toBe(BASE);
    const seen = recordRequests();
    await ctx.client.account.get();
    expect(seen[0]!.headers.get('x-api-key')).toBe(KEY);
  });

  it('hand positional arguments over under their keys, and their exit code back', async () => {
    const trigger = fake(
      'webhooks trigger',
      {
        arguments: [{ name: 'event-type', key: 'eventType', description: 'Type.', required: true }],
      },
      2,
    );
    const res = await cli(['webhooks', 'trigger', 'tweet.new'], { interactive: [trigger.spec] });
    expect(res.code).toBe(2);
    expect(trigger.calls[0]!.raw).toEqual({ eventType: 'tweet.new' });
  });

  it('load their runner only when invoked', async () => {
    const watch = fake('monitors watch');
    await cli(['monitors', '--help'], { interactive: [watch.spec] });
    await cli(['monitors', 'watch', '--help'], { interactive: [watch.spec] });
    await cli(['--help'], { interactive: [watch.spec] });
    expect(watch.loads()).toBe(0);
    await cli(['monitors', 'watch'], { interactive: [watch.spec] });
    expect(watch.loads()).toBe(1);
  });

  it('appear in the help of their resource, with their examples', async () => {
    const watch = fake('monitors watch', { examples: ['monitors watch --monitor 7'] });
    const resource = await cli(['monitors', '--help'], { interactive: [watch.spec] });
    expect(resource.stdout).toMatch(/^ {2}watch\b/m);
    const own = await cli(['monitors', 'watch', '--help'], { interactive: [watch.spec] });
    expect(own.stdout).toContain('$ xsvc monitors watch --monitor 7');
  });

  it('a new resource (server start) is a command of its own', async () => {
    const server = fake('server start', {
      options: [
        { flag: '--port <port>', key: 'port', type: 'number', description: 'Port.', required: false },
      ],
    });
    const res = await cli(['server', 'start', '--port', '0'], { interactive: [server.spec] });
    expect(res.code).toBe(0);
    expect(server.calls[0]!.raw).toEqual({ port: 0 });
    const bad = await cli(['server', 'start', '--port', 'eighty'], { interactive: [server.spec] });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--port');
  });

  it('a required option missing is a usage error naming it', async () => {
    const listen = fake('webhooks listen', {
      options: [
        { flag: '--forward-to <url>', key: 'forwardTo', type: 'string', description: 'URL.', required: true },
      ],
    });
    const res = await cli(['webhooks', 'listen'], { interactive: [listen.spec] });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--forward-to');
    expect(listen.calls).toHaveLength(0);
  });

  it('at a resource with actions (compose) run bare, while the actions keep their own options', async () => {
    const compose = fake('compose', {
      options: [
        { flag: '--step <step>', key: 'step', type: 'string', description: 'Step.', required: false },
      ],
    });
    const bare = await cli(['compose', '--step', 'score'], { interactive: [compose.spec] });
    expect(bare.code).toBe(0);
    expect(compose.calls[0]!.raw).toEqual({ step: 'score' });
    const seen = recordRequests();
    const run = await cli(['compose', 'run', '--step', 'compose', '--topic', 't'], {
      interactive: [compose.spec],
    });
    expect(run.code).toBe(0);
    expect(compose.calls).toHaveLength(1);
    expect(seen[0]!.path).toBe('/api/v1/compose');
  });

  it('at an operation (extractions run) take its flags, validated by the contract, plus their own', async () => {
    const runSpec = fake('extractions run', {
      arguments: [{ name: 'tool', key: 'tool', description: 'Tool.', required: true }],
      options: [
        { flag: '--wait', key: 'wait', type: 'boolean', description: 'Wait.', required: false },
        {
          flag: '--target-username <target-username>',
          key: 'targetUsername',
          type: 'string',
          description: 'x',
          required: false,
        },
      ],
    });
    const res = await cli(
      ['extractions', 'run', 'follower_explorer', '--target-username', 'jack', '--wait'],
      {
        interactive: [runSpec.spec],
      },
    );
    expect(res.code).toBe(0);
    expect(runSpec.calls[0]!.raw).toMatchObject({
      tool: 'follower_explorer',
      toolType: 'follower_explorer',
      targetUsername: 'jack',
      wait: true,
    });
    const bad = await cli(['extractions', 'run', 'no_such_tool'], { interactive: [runSpec.spec] });
    expect(bad.code).toBe(2);
    expect(runSpec.calls).toHaveLength(1);
    // --dry-run describes the operation's request and runs nothing.
    const dry = await cli(
      ['extractions', 'run', 'follower_explorer', '--target-username', 'jack', '--dry-run', '--json'],
      {
        interactive: [runSpec.spec],
      },
    );
    expect(dry.json()).toMatchObject({
      method: 'POST',
      body: { toolType: 'follower_explorer', targetUsername: 'jack' },
    });
    expect(runSpec.calls).toHaveLength(1);
  });

  it('errors of the service thrown by a runner are reported like any command', async () => {
    const watch = fake('monitors watch', {
      load: async () => ({
        run: async (ctx) => {
          await ctx.client.tweets.get('404');
          return 0;
        },
      }),
    });
    const { mockError } = await import('@xsvc/sdk/testing');
    const { http } = await import('msw');
    api.use(http.get(`${BASE}/api/v1/x/tweets/:id`, () => mockError(402, 'no_credits')));
    const res = await cli(['monitors', 'watch'], { interactive: [watch.spec] });
    expect(res.code).toBe(5);
    expect(res.stderr).toContain('no_credits');
  });

  it('describe their session with --dry-run, sending nothing', async () => {
    const watch = fake('monitors watch');
    const res = await cli(['monitors', 'watch', '--dry-run'], { interactive: [watch.spec] });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('nothing was sent');
    expect(watch.loads()).toBe(0);
  });
});

describe('the real interactive table', () => {
  it('is the generated one, and each of its commands is registered', async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { renderInteractiveTable } = await import('../src/table/render-interactive.js');
    const committed = readFileSync(
      join(import.meta.dirname, '../src/table/interactive.generated.ts'),
      'utf8',
    );
    expect(committed).toBe(renderInteractiveTable(interactiveCommands));
    for (const spec of interactiveCommands) {
      const res = await cli([...spec.name.split(' '), '--help'], { interactive: 'real' });
      expect(res.code, spec.name).toBe(0);
      expect(res.stdout, spec.name).toContain(`xsvc ${spec.examples[0]}`);
    }
  });
});
