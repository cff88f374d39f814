import type { Command } from 'commander';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { completionModel } from './model.js';
import { zshScript } from './zsh.js';

/** The completion script of a shell, from the fully built program (itself built from the command table). */
export function completionScript(shell: string, program: Command): string {
  const nodes = completionModel(program);
  if (shell === 'zsh') return zshScript(nodes);
  if (shell === 'fish') return fishScript(nodes);
  return bashScript(nodes);
}
