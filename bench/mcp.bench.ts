/**
 * What the MCP tool list costs in a model's context, measured on the BUILT package
 * (`pnpm --filter @xsvc/mcp build` first; `pnpm bench` does): the size of the `tools/list` answer in tokens
 * (JSON characters / 4, the usual estimate) for the grouped tools of `@xsvc/mcp`, read-only (the default)
 * and with writes enabled, beside one tool per operation built from the same contract, two ways:
 *   same schemas  each served operation as its own tool, with exactly the params schema, summary, output
 *                 schema and annotations it has as an action: the ratio is what grouping alone saves;
 *   naive         what a generic generator emits: one tool per served operation named by its id, described
 *                 by its summary and notes, its path, query and body schemas as zod converts them.
 * Goal: the default grouped list costs at most a quarter of the naive one-tool-per-operation list; the
 * `code` toolset (explore + call, every operation in two tools) is measured beside it.
 */
import { describeTools, exploreCatalog, type ToolDescription } from '@xsvc/mcp';
import { type AnyOperation, operationsById } from '@xsvc/sdk/contract';
import { goal, table } from './src/stats.js';

type Json = Record<string, unknown>;

const tokens = (tools: readonly unknown[]): number => Math.round(JSON.stringify({ tools }).length / 4);

function lists(enableWrites: boolean): { grouped: ToolDescription[]; same: unknown[]; naive: unknown[] } {
  const grouped = describeTools({ enableWrites });
  const byName = new Map(grouped.map((t) => [t.name, t]));
  const explore = grouped.filter((t) => t.name === 'explore');
  const served = exploreCatalog({ limit: Number.POSITIVE_INFINITY }, { enableWrites }).operations.filter(
    (o) => o.available === true,
  );
  const same: Json[] = served.map((o) => {
    const tool = byName.get(String(o.tool))!;
    const { title: _, description, ...inputSchema } = o.params as Json;
    return {
      name: `${tool.name}_${String(o.action)}`,
      title: `${tool.title}: ${String(o.action)}`,
      description,
      inputSchema,
      outputSchema: tool.outputSchema,
      annotations: tool.annotations,
    };
  });
  const naive: Json[] = served.map((o) => {
    const op = (operationsById as Readonly<Record<string, AnyOperation>>)[String(o.operation)]!;
    const properties: Json = {};
    const required: string[] = [];
    for (const part of [op.params, op.query, op.body]) {
      if (!part) continue;
      const json = part['~standard'].jsonSchema.input({
        target: 'draft-2020-12',
        libraryOptions: { unrepresentable: 'any' },
      }) as Json;
      if (json.properties === undefined) properties.body = json;
      else {
        Object.assign(properties, json.properties);
        required.push(...((json.required as string[] | undefined) ?? []));
      }
    }
    const tool = byName.get(String(o.tool))!;
    return {
      name: op.id,
      description: op.description ? `${op.summary}. ${op.description}` : op.summary,
      inputSchema: { type: 'object', properties, required },
      outputSchema: tool.outputSchema,
      annotations: tool.annotations,
    };
  });
  return { grouped, same: [...same, ...explore], naive: [...naive, ...explore] };
}

const ratio = (other: readonly unknown[], base: readonly unknown[]) =>
  `${(tokens(other) / tokens(base)).toFixed(2)}x`;

const rows: (string | number)[][] = [['tools/list', 'tools', 'tokens', 'vs grouped']];
const results = new Map<boolean, ReturnType<typeof lists>>();
for (const enableWrites of [false, true]) {
  const l = lists(enableWrites);
  results.set(enableWrites, l);
  const label = enableWrites ? 'writes enabled' : 'read-only (default)';
  rows.push([`grouped, ${label}`, l.grouped.length, tokens(l.grouped), '1.00x']);
  rows.push([
    '  one tool per operation, same schemas',
    l.same.length,
    tokens(l.same),
    ratio(l.same, l.grouped),
  ]);
  rows.push(['  one tool per operation, naive', l.naive.length, tokens(l.naive), ratio(l.naive, l.grouped)]);
}
table(rows);
console.log('(explore is in every list; tokens = JSON characters / 4)');

const def = results.get(false)!;
const code = describeTools({ toolsets: ['code'] });
const codeWrites = describeTools({ toolsets: ['code'], enableWrites: true });
table([
  ['code toolset', 'tools', 'tokens', 'vs naive'],
  ['read-only (default)', code.length, tokens(code), ratio(code, def.naive)],
  ['writes enabled', codeWrites.length, tokens(codeWrites), ratio(codeWrites, results.get(true)!.naive)],
]);
const ok = goal(
  'default grouped tools/list at most 0.25x of one tool per operation (naive)',
  tokens(def.grouped) * 4 <= tokens(def.naive),
  `${tokens(def.grouped)} vs ${tokens(def.naive)} tokens, ${(tokens(def.grouped) / tokens(def.naive)).toFixed(3)}x`,
);
if (!ok) process.exitCode = 1;
