import { commands } from './commands.generated.js';
import type { CommandSpec } from './types.js';

/** A node of the command tree: a resource (with children), an operation, or both (`compose`). */
export interface TreeNode {
  readonly name: string;
  readonly path: readonly string[];
  readonly children: Map<string, TreeNode>;
  spec?: CommandSpec;
}

let cached: TreeNode | undefined;

/** The command tree of every operation, by path (`monitors` → `keywords` → `create`). */
export function commandTree(): TreeNode {
  cached ??= buildTree(commands);
  return cached;
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

/** The command of an operation id (for hints that name another command). */
export function commandOf(op: string): CommandSpec | undefined {
  return commands.find((c) => c.op === op);
}

/** `xsvc credits topup`, the command line of an operation, for hints; undefined when it is not served. */
export function commandLine(op: string, rest = ''): string | undefined {
  const spec = commandOf(op);
  return spec ? `xsvc ${spec.path.join(' ')}${rest ? ` ${rest}` : ''}` : undefined;
}
