// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are shell code, `${…}` is shell syntax
import type { CompletionNode } from './model.js';

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function caseFn(
  name: string,
  nodes: readonly CompletionNode[],
  words: (n: CompletionNode) => readonly string[],
): string[] {
  const lines = [`${name}() {`, '  case "$1" in'];
  for (const n of nodes) {
    const w = words(n);
    if (w.length > 0) lines.push(`    ${q(n.path)}) echo ${q(w.join(' '))} ;;`);
  }
  lines.push('  esac', '}');
  return lines;
}

/**
 * The bash script: the command path is rebuilt from the words typed (skipping flags and their values), then
 * children, flags or a flag's choices are offered. Works with bash 3.2 (no associative arrays).
 */
export function bashScript(nodes: readonly CompletionNode[]): string {
  const valued: string[] = ['_xsvc_choices() {', '  case "$1|$2" in'];
  for (const n of nodes) {
    for (const f of n.flags) {
      if (f.takesValue)
        valued.push(`    ${q(`${n.path}|${f.name}`)}) echo ${q(f.choices?.join(' ') ?? '')} ;;`);
    }
  }
  valued.push('    *) return 1 ;;', '  esac', '}');
  return [
    '# bash completion for xsvc. Load it with: source <(xsvc completion bash)',
    ...caseFn('_xsvc_children', nodes, (n) => n.children.map((c) => c.name)),
    ...caseFn('_xsvc_values', nodes, (n) => n.values),
    ...caseFn('_xsvc_flags', nodes, (n) => n.flags.map((f) => f.name)),
    ...valued,
    '_xsvc() {',
    '  local cur="${COMP_WORDS[COMP_CWORD]}" prev="" cmdpath="" i w',
    '  [[ $COMP_CWORD -gt 0 ]] && prev="${COMP_WORDS[COMP_CWORD-1]}"',
    '  for ((i = 1; i < COMP_CWORD; i++)); do',
    '    w="${COMP_WORDS[i]}"',
    '    if [[ "$w" == -* ]]; then',
    '      _xsvc_choices "$cmdpath" "$w" >/dev/null && ((i++))',
    '      continue',
    '    fi',
    '    if [[ " $(_xsvc_children "$cmdpath") " == *" $w "* ]]; then cmdpath="${cmdpath:+$cmdpath }$w"; fi',
    '  done',
    '  local values',
    '  if [[ "$prev" == -* ]] && values="$(_xsvc_choices "$cmdpath" "$prev")"; then',
    '    if [[ -n "$values" ]]; then COMPREPLY=($(compgen -W "$values" -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi',
    '    return 0',
    '  fi',
    '  if [[ "$cur" == -* ]]; then',
    '    COMPREPLY=($(compgen -W "$(_xsvc_flags "$cmdpath")" -- "$cur"))',
    '  else',
    '    COMPREPLY=($(compgen -W "$(_xsvc_children "$cmdpath") $(_xsvc_values "$cmdpath")" -- "$cur"))',
    '  fi',
    '  return 0',
    '}',
    'complete -F _xsvc xsvc',
    '',
  ].join('\n');
}
