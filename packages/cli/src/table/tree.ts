import { commandPaths, loadCommands, resourceActions } from './index.generated.js';
import type { CommandSpec } from './types.js';

/** A node of the command tree: a resource (with children), an operation, or both (`compose`). */
export interface TreeNode {
  readonly name: string;
  readonly path: readonly string[];
  readonly children: Map<string, TreeNode>;
  spec?: CommandSpec;
}

/** The resources of the command table, in order. */
export function resourceNames(): string[] {
  return Object.keys(resourceActions);
}

/**
 * The command tree of every operation, by path (`monitors` → `keywords` → `create`), with the commands of
 * the `full` resources loaded (their specs, at every depth). Every other resource has its actions by name
 * only (no spec, no children): enough for a summary, which is all a resource the line does not name shows.
 */
export async function loadTree(full: Iterable<string>): Promise<TreeNode> {
  const wanted = new Set([...full].filter((r) => Object.hasOwn(loadCommands, r)));
  const tables = await Promise.all([...wanted].map((r) => loadCommands[r]!()));
  const root = buildTree(tables.flat());
  const children = new Map<string, TreeNode>();
  for (const [name, actions] of Object.entries(resourceActions)) {
    const loaded = root.children.get(name);
    if (loaded) {
      children.set(name, loaded);
      continue;
    }
    const node: TreeNode = { name, path: [name], children: new Map() };
    for (const a of actions) node.children.set(a, { name: a, path: [name, a], children: new Map() });
    children.set(name, node);
  }
  return { ...root, children };
}

/** The command tree with every resource's commands loaded (completion scripts, the docs). */
export function fullTree(): Promise<TreeNode> {
  return loadTree(resourceNames());
}

/** Builds the tree of a command table. */
export function buildTree(table: readonly CommandSpec[]): TreeNode {
  const root: TreeNode = { name: '', path: [], children: new Map() };
  for (const spec of table) {
    let node = root;
    for (const part of spec.path) {
      let child = node.children.get(part);
      if (!child) {
        child = { name: part, path: [...node.path, part], children: new Map() };
        node.children.set(part, child);
      }
      node = child;
    }
    node.spec = spec;
  }
  return root;
}

/** `xsvc credits topup`, the command line of an operation, for hints; undefined when it is not served. */
export function commandLine(op: string, rest = ''): string | undefined {
  const path = Object.hasOwn(commandPaths, op) ? commandPaths[op] : undefined;
  return path ? `xsvc ${path}${rest ? ` ${rest}` : ''}` : undefined;
}
