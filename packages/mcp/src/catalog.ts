import type { ToolAnnotations } from '@modelcontextprotocol/server';
import { type AnyOperation, operations } from '@xsvc/sdk/contract';
import { type Action, actionJsonSchema, buildAction } from './actions.js';
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

const ACTION_HINT = 'Set `action`; `params` follows the params branch titled with it.';

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
  return {
    name: write ? names.write : names.read,
    title: write ? `${area.title} (write)` : area.title,
    toolset: area.name,
    write,
    description: `${about} ${ACTION_HINT}`,
    actions,
    annotations: annotationsFor(write, list),
    inputJson: inputJson(write, list),
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
function inputJson(write: boolean, actions: readonly Action[]): JsonSchema {
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
    params: { type: 'object', anyOf: actions.map((a) => actionJsonSchema(a, { offered })) },
    ...filters,
  };
  if (write) {
    properties.idempotency_key = {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      description: 'Optional. Repeat the key of a call whose outcome you did not see: it is not done twice.',
    };
  }
  return { type: 'object', properties, required: ['action'], additionalProperties: false };
}
