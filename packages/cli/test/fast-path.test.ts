import { describe, expect, it, vi } from 'vitest';
import type { OperationRun } from '../src/exec/operation.js';
import type { CliIO } from '../src/io.js';
import { systemClock } from '../src/io.js';
import { buildProgram } from '../src/program/build.js';
import { parseOperationLine } from '../src/program/fast-path.js';
import { interactiveSpecs } from '../src/program/interactive-table.js';
import { splitJsonArgs } from '../src/program/json-args.js';
import type { RunState } from '../src/program/run-state.js';
import { commands } from '../src/table/commands.generated.js';
import { fullTree } from '../src/table/tree.js';
import type { CommandSpec, FlagSpec } from '../src/table/types.js';
import { captured } from './helpers.js';

// Commander's side of the comparison: the operation command's action hands its run here instead of running it.
const received: OperationRun[] = [];
vi.mock('../src/exec/operation.js', async (original) => ({
  ...(await original<typeof import('../src/exec/operation.js')>()),
  runOperation: async (run: OperationRun) => {
    received.push(run);
  },
}));

const tree = await fullTree();
const interactive = interactiveSpecs();
const interactiveArity = new Map(interactive.map((s) => [s.name, s.arguments.length]));

function io(): CliIO {
  return {
    stdout: captured(),
    stderr: captured(),
    stdin: captured(),
    env: {},
    cwd: '/tmp',
    home: '/tmp',
    clock: systemClock,
  };
}

/** What commander gives the action for a line, or the error it refuses it with. */
async function viaCommander(argv: readonly string[]): Promise<OperationRun | Error> {
  const split = splitJsonArgs(argv, interactiveArity, tree);
  const state: RunState = { io: io(), argv, exitCode: 0 };
  received.length = 0;
  try {
    await buildProgram(state, split.argv, interactive, tree).parseAsync([...split.argv], { from: 'user' });
  } catch (err) {
    return err as Error;
  }
  const [run] = received;
  if (!run) throw new Error(`commander ran no operation for: ${argv.join(' ')}`);
  return run;
}

function viaFastPath(argv: readonly string[]) {
  const split = splitJsonArgs(argv, interactiveArity, tree);
  return parseOperationLine(split.argv, tree, interactive, {});
}

/** A value commander and the fast path must read alike, per flag type (choices in another case). */
function sample(f: FlagSpec): string[] {
  switch (f.type) {
    case 'number':
      return ['7'];
    case 'enum':
      return [(f.choices?.[0] ?? 'x').toUpperCase()];
    case 'list':
      return ['a,b'];
    case 'json':
      return ['{"a":1}'];
    case 'file':
      return ['picture.png'];
    case 'boolean':
      return [];
    default:
      return ['some text'];
  }
}

/** Lines of one operation that both parsers must accept and read alike. */
function lines(spec: CommandSpec): string[][] {
  const words = spec.path;
  const args = spec.args.map((a) => {
    const choices = spec.flags.find((f) => f.key === a.key && f.type === 'enum')?.choices;
    return choices ? choices[choices.length - 1]!.toLowerCase() : `${a.name}-1`;
  });
  const positional = new Set(spec.args.map((a) => a.key));
  const flags = spec.flags.filter((f) => !positional.has(f.key));
  const out: string[][] = [[...words, ...args]];
  // Every parameter flag (a boolean one alone, with a value and negated; a secret's stdin form).
  const every: string[] = [];
  for (const f of flags) {
    if (f.secret) every.push(`--${f.flag}-stdin`);
    else if (f.type === 'boolean') {
      out.push([...words, ...args, `--${f.flag}`]);
      out.push([...words, ...args, `--${f.flag}`, 'false', '--json']);
      out.push([...words, ...args, `--no-${f.flag}`]);
    } else {
      every.push(`--${f.flag}`, ...sample(f));
      if (f.alias) out.push([...words, ...args, `--${f.alias}`, ...sample(f)]);
      // A list flag given twice adds up; any other, the last one wins.
      out.push([...words, ...args, `--${f.flag}`, ...sample(f), `--${f.flag}`, ...sample(f)]);
    }
  }
  out.push([...words, ...args, ...every]);
  // The CLI's own options, and the globals before the words and after them.
  const own: string[] = [];
  if (spec.pagination) own.push('--all', '--limit', '3', '--cursor', 'c-1');
  if (spec.write) own.push('--no-wait', '--wait-timeout', '5');
  if (spec.idempotencyKey) own.push('--idempotency-key', 'k-1');
  if (spec.response === 'binary') own.push('-o', 'out.bin');
  if (spec.machinePayment !== undefined) own.push('--pay');
  if (spec.flags.length > 0 || spec.body) own.push('--data', '{}');
  out.push([...words, ...args, ...own]);
  out.push(['--profile', 'p1', '--no-color', ...words, ...args, '--json', 'id,text']);
  out.push([...words, '--base-url', 'http://x.test', ...args, '--dry-run', '--verbose', '--jq', '.id']);
  if (spec.write) out.push([...words, ...args, '--wait', '--no-wait']);
  return out;
}

/** Lines of one operation that the fast path must leave to commander (its errors, its help). */
function declined(spec: CommandSpec): string[][] {
  const words = spec.path;
  const args = spec.args.map((a) => `${a.name}-1`);
  const out: string[][] = [
    [...words, ...args, '--help'],
    [...words, ...args, '-h'],
    [...words, ...args, '--not-a-flag'],
    [...words, ...args, 'one-too-many'],
    [...words, ...args, '--base-url=http://x.test'],
    ['--version', ...words, ...args],
    [...words, ...args, '--', 'x'],
  ];
  const value = spec.flags.find(
    (f) => f.type === 'string' && !f.secret && !spec.args.some((a) => a.key === f.key),
  );
  if (value) out.push([...words, ...args, `--${value.flag}`, '-x'], [...words, ...args, `--${value.flag}`]);
  if (spec.args.some((a) => a.required)) out.push([...words]);
  const choice = spec.flags.find((f) => f.type === 'enum' && !spec.args.some((a) => a.key === f.key));
  if (choice) out.push([...words, ...args, `--${choice.flag}`, 'not-a-choice']);
  return out;
}

const merged = new Set(interactive.map((s) => s.name));
const plain = commands.filter((c) => !merged.has(c.path.join(' ')) && !tree.children.get(c.path[0]!)?.spec);

describe('the fast path reads an operation line as commander does', () => {
  it('covers nearly every operation (the others are left to commander)', () => {
    expect(plain.length).toBeGreaterThan(commands.length - 10);
  });

  it.each(plain.map((c) => [c.path.join(' '), c] as const))('%s', async (_name, spec) => {
    for (const line of [
      spec.example.match(/"[^"]*"|'[^']*'|\S+/g)!.map((w) => w.replace(/^["']|["']$/g, '')),
      ...lines(spec),
    ]) {
      const fast = viaFastPath(line);
      const slow = await viaCommander(line);
      if (slow instanceof Error) throw new Error(`commander refused ${line.join(' ')}: ${slow.message}`);
      expect(fast, line.join(' ')).toBeDefined();
      expect(fast!.spec, line.join(' ')).toBe(slow.spec);
      expect(fast!.positionals, line.join(' ')).toStrictEqual(slow.positionals);
      expect(fast!.opts, line.join(' ')).toStrictEqual({ ...slow.opts });
      expect(fast!.globals, line.join(' ')).toStrictEqual(slow.globals);
    }
    for (const line of declined(spec)) expect(viaFastPath(line), line.join(' ')).toBeUndefined();
  });

  it('leaves an operation with an interactive command merged into it to commander', () => {
    const spec = commands.find((c) => merged.has(c.path.join(' ')));
    expect(spec).toBeDefined();
    const line = [...spec!.path, ...spec!.args.map((a) => `${a.name}-1`)];
    expect(viaFastPath(line)).toBeUndefined();
  });

  it('leaves builtins, help and a resource alone to commander', () => {
    for (const line of [['login'], ['help', 'users'], ['users'], ['completion', 'bash'], ['api', '/x'], []])
      expect(viaFastPath(line), line.join(' ')).toBeUndefined();
  });
});
