import type { CompletionNode } from './model.js';

/** A fish single-quoted string (`\\` and `'` escaped). */
const q = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/**
 * The fish script: `__xsvc_path` rebuilds the command path from the words typed; each command's children
 * and flags are `complete` lines conditioned on that path.
 */
export function fishScript(nodes: readonly CompletionNode[]): string {
  const lines = [
    '# fish completion for xsvc. Install: xsvc completion fish > ~/.config/fish/completions/xsvc.fish',
    'function __xsvc_children',
    '    switch $argv[1]',
  ];
  for (const n of nodes) {
    if (n.children.length > 0)
      lines.push(
        `        case ${q(n.path)}`,
        `            printf '%s\\n' ${n.children.map((c) => q(c.name)).join(' ')}`,
      );
  }
  lines.push('    end', 'end', 'function __xsvc_valued', '    switch $argv[1]');
  for (const n of nodes) {
    const valued = n.flags.filter((f) => f.takesValue).map((f) => q(f.name));
    if (valued.length > 0)
      lines.push(`        case ${q(n.path)}`, `            printf '%s\\n' ${valued.join(' ')}`);
  }
  lines.push(
    '    end',
    'end',
    'function __xsvc_path',
    '    set -l words (commandline -opc)',
    '    set -e words[1]',
    '    set -l p ""',
    '    set -l skip 0',
    '    for w in $words',
    '        if test $skip = 1',
    '            set skip 0',
    '            continue',
    '        end',
    "        if string match -q -- '-*' $w",
    '            if contains -- $w (__xsvc_valued "$p")',
    '                set skip 1',
    '            end',
    '            continue',
    '        end',
    '        if contains -- $w (__xsvc_children "$p")',
    '            set p (string trim -- "$p $w")',
    '        end',
    '    end',
    '    echo $p',
    'end',
    'function __xsvc_is',
    '    set -l p (__xsvc_path)',
    '    test "$p" = "$argv[1]"',
    'end',
    'complete -c xsvc -f',
  );
  for (const n of nodes) {
    const cond = `-n ${q(`__xsvc_is ${q(n.path)}`)}`;
    for (const c of n.children) lines.push(`complete -c xsvc ${cond} -a ${q(c.name)} -d ${q(c.description)}`);
    if (n.values.length > 0) lines.push(`complete -c xsvc ${cond} -a ${q(n.values.join(' '))}`);
    for (const f of n.flags) {
      const value = f.takesValue ? (f.choices ? ` -x -a ${q(f.choices.join(' '))}` : ' -r -F') : '';
      lines.push(`complete -c xsvc ${cond} -l ${f.name.replace(/^--/, '')}${value} -d ${q(f.description)}`);
    }
  }
  lines.push('');
  return lines.join('\n');
}
