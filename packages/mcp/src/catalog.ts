import type { ToolAnnotations } from '@modelcontextprotocol/server';
import { type AnyOperation, operations } from '@xsvc/sdk/contract';
import { type Action, actionJsonSchema, buildAction, costNote } from './actions.js';
import { AREAS, type Area, areaOf, type ToolsetName, toolNames } from './areas.js';
import { withheldReason } from './exposure.js';
import { FILTER_GROUPS, filterArgumentJson } from './filter-groups.js';
import type { JsonSchema } from './json-schema.js';

/** One grouped tool: the read or the write operations of an area, each an action. */
export interface ToolDef {
  readonly name: string;
  readonly title: string;
  readonly toolset: ToolsetName;
  readonly write: boolean;
  readonly description: string;
  readonly actions: ReadonlyMap<string, Action>;
  readonly annotations: ToolAnnotations;
  /** The JSON Schema advertised in tools/list. */
  readonly inputJson: JsonSchema;
}

/** Every operation of the contract, with the tool and action serving it or the reason none does. */
export interface CatalogEntry {
  readonly op: AnyOperation;
  readonly tool?: ToolDef;
  readonly action?: Action;
  readonly withheld?: string;
}

export interface Catalog {
  readonly tools: readonly ToolDef[];
  readonly entries: readonly CatalogEntry[];
}

const ACTION_HINT = '`action` picks the `params` branch; `explore` details any param.';

let cached: Catalog | undefined;

/**
 * The tools, built once per process from the contract (schemas converted once, then shared by every server
 * instance, so a per-request factory on the remote `/mcp` stays cheap).
 */
export function getCatalog(): Catalog {
  cached ??= buildCatalog();
  return cached;
}

function buildCatalog(): Catalog {
  const byArea = new Map<string, { read: Action[]; write: Action[] }>();
  const actionOf = new Map<string, Action>();
  for (const op of operations) {
    const area = areaOf(op);
    if (!area || withheldReason(op)) continue;
    const action = buildAction(op, area);
    actionOf.set(op.id, action);
    const group = byArea.get(area.name) ?? { read: [], write: [] };
    byArea.set(area.name, group);
    (action.write ? group.write : group.read).push(action);
  }
  const tools: ToolDef[] = [];
  const toolOf = new Map<string, ToolDef>();
  for (const area of AREAS) {
    const group = byArea.get(area.name);
    if (!group) continue;
    for (const write of [false, true]) {
      const actions = write ? group.write : group.read;
      if (actions.length === 0) continue;
      const tool = buildTool(area, write, actions);
      tools.push(tool);
      for (const a of actions) toolOf.set(a.op.id, tool);
    }
  }
  const entries = operations.map((op): CatalogEntry => {
    const tool = toolOf.get(op.id);
    const action = actionOf.get(op.id);
    if (tool && action) return { op, tool, action };
    return { op, withheld: withheldReason(op) ?? 'not served.' };
  });
  return { tools, entries };
}

function buildTool(area: Area, write: boolean, list: readonly Action[]): ToolDef {
  const actions = new Map<string, Action>();
  for (const a of list) {
    if (actions.has(a.name)) throw new TypeError(`duplicate action ${a.name} in ${area.name}`);
    actions.set(a.name, a);
  }
  const names = toolNames(area);
  const about = write ? (area.writeAbout ?? `Changes to ${area.title.toLowerCase()}.`) : area.about;
  const cost = commonCost(list);
  return {
    name: write ? names.write : names.read,
    title: write ? `${area.title} (write)` : area.title,
    toolset: area.name,
    write,
    description: `${about}${cost ? ` Actions cost${cost.replace(/[()]/g, '')} unless they say otherwise.` : ''} ${ACTION_HINT}`,
    actions,
    annotations: annotationsFor(write, list),
    inputJson: inputJson(list, cost),
  };
}

/**
 * The MCP hints, from the actions: a read tool is read-only; a write tool is destructive when any action
 * may remove or overwrite something, idempotent when every action is; open-world when any action reaches
 * the platform or a third party.
 */
function annotationsFor(write: boolean, actions: readonly Action[]): ToolAnnotations {
  const openWorldHint = actions.some((a) => a.outside);
  if (!write) return { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint };
  return {
    readOnlyHint: false,
    destructiveHint: actions.some((a) => a.destructive),
    idempotentHint: actions.every((a) => a.op.idempotent),
    openWorldHint,
  };
}

/**
 * The advertised input: `action`, and `params` as one branch per action (titled with it). The union sits
 * one level down on purpose: several model APIs refuse a tool whose schema has `anyOf`/`oneOf` at the root.
 */
function inputJson(actions: readonly Action[], toolCost: string | undefined): JsonSchema {
  const filters: Record<string, JsonSchema> = {};
  const offered = new Map<string, readonly string[]>();
  for (const group of FILTER_GROUPS) {
    const takers = actions.filter((a) => a.filters.has(group.name));
    if (takers.length === 0) continue;
    const keys = new Set(takers.flatMap((a) => a.filters.get(group.name) ?? []));
    const ordered = Object.keys(group.shape).filter((k) => keys.has(k));
    offered.set(group.name, ordered);
    filters[group.name] = filterArgumentJson(
      group,
      ordered,
      takers.map((a) => a.name),
    );
  }
  const properties: Record<string, JsonSchema> = {
    action: { type: 'string', enum: actions.map((a) => a.name) },
    params: {
      type: 'object',
      anyOf: withoutRepeatedDescriptions(
        actions.map((a) => actionJsonSchema(a, { offered, lean: true, ...(toolCost && { toolCost }) })),
      ),
    },
    ...filters,
  };
  // Offered where an action takes an `Idempotency-Key` (the contract declares which do).
  if (actions.some((a) => a.idempotencyKey)) {
    properties.idempotency_key = {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      description: 'Optional. Repeat the key of a call whose outcome you did not see: it is not done twice.',
    };
  }
  return { type: 'object', properties, required: ['action'], additionalProperties: false };
}

/** Choices beyond this many are listed once per tool. */
const LONG_ENUM = 6;

/**
 * Drops a parameter's description where an earlier action of the same tool already gave it to the same
 * parameter name (`id` of the user actions): the model reads the tool's schema as one text.
 */
function withoutRepeatedDescriptions(branches: JsonSchema[]): JsonSchema[] {
  const seen = new Set<string>();
  const enums = new Map<string, string>();
  return branches.map((branch) => {
    const props = branch.properties as Record<string, JsonSchema> | undefined;
    if (!props) return branch;
    const out: Record<string, JsonSchema> = {};
    for (const [name, prop] of Object.entries(props)) {
      let p = prop;
      const key = `${name}\u0000${String(p.description)}`;
      if (p.description !== undefined && seen.has(key)) {
        const { description: _, ...rest } = p;
        p = rest;
      } else if (p.description !== undefined) seen.add(key);
      // A long list of choices is listed once per tool; later actions point to it.
      if (Array.isArray(p.enum) && p.enum.length > LONG_ENUM) {
        const first = enums.get(`${name}\u0000${JSON.stringify(p.enum)}`);
        if (first === undefined) enums.set(`${name}\u0000${JSON.stringify(p.enum)}`, String(branch.title));
        else {
          const { enum: _, ...rest } = p;
          p = { ...rest, type: 'string', description: `one of the ${name} choices of ${first}` };
        }
      }
      out[name] = p;
    }
    return { ...branch, properties: out };
  });
}

/** The price most actions of a tool share, when at least three do (stated once, in the description). */
function commonCost(actions: readonly Action[]): string | undefined {
  const counts = new Map<string, number>();
  for (const a of actions) {
    const note = costNote(a.op);
    if (note !== '') counts.set(note, (counts.get(note) ?? 0) + 1);
  }
  const [best] = [...counts].sort((a, b) => b[1] - a[1]);
  return best && best[1] >= 3 ? best[0] : undefined;
}
