// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are shell code, `${…}` is shell syntax
import type { CompletionNode } from './model.js';

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
/** `name:description` for `_describe`; a colon in the name must be escaped. */
const item = (name: string, description: string) => q(`${name.replace(/:/g, '\\:')}:${description}`);

/**
 * The zsh script: like the bash one (the path rebuilt from the words typed), with descriptions through
 * `_describe`. `cmdpath`, never `path`: zsh ties `path` to `$PATH`.
 */
export function zshScript(nodes: readonly CompletionNode[]): string {
  const children = ['_xsvc_children() {', '  case "$1" in'];
  const flags = ['_xsvc_flags() {', '  case "$1" in'];
  const choices = ['_xsvc_choices() {', '  case "$1|$2" in'];
  for (const n of nodes) {
    const words = [
      ...n.children.map((c) => item(c.name, c.description)),
      ...n.values.map((v) => item(v, '')),
    ];
    if (words.length > 0) children.push(`    ${q(n.path)}) print -rl -- ${words.join(' ')} ;;`);
    flags.push(
      `    ${q(n.path)}) print -rl -- ${n.flags.map((f) => item(f.name, f.description)).join(' ')} ;;`,
    );
    for (const f of n.flags) {
      if (f.takesValue)
        choices.push(
          `    ${q(`${n.path}|${f.name}`)}) print -rl -- ${(f.choices ?? []).map(q).join(' ')} ;;`,
        );
    }
  }
  children.push('  esac', '}');
  flags.push('  esac', '}');
  choices.push('    *) return 1 ;;', '  esac', '}');
  return [
    '#compdef xsvc',
    '# zsh completion for xsvc. Install: xsvc completion zsh > "${fpath[1]}/_xsvc"',
    ...children,
    ...flags,
    ...choices,
    '_xsvc() {',
    '  local cmdpath="" w i',
    '  local -a names values described',
    '  for ((i = 2; i < CURRENT; i++)); do',
    '    w="${words[i]}"',
    '    if [[ "$w" == -* ]]; then',
    '      _xsvc_choices "$cmdpath" "$w" >/dev/null && ((i++))',
    '      continue',
    '    fi',
    '    names=(${${(f)"$(_xsvc_children "$cmdpath")"}%%:*})',
    '    (( ${names[(Ie)$w]} )) && cmdpath="${cmdpath:+$cmdpath }$w"',
    '  done',
    '  local prev="${words[CURRENT-1]}"',
    '  if [[ "$prev" == -* ]] && _xsvc_choices "$cmdpath" "$prev" >/dev/null; then',
    '    values=(${(f)"$(_xsvc_choices "$cmdpath" "$prev")"})',
    '    if (( ${#values} )); then compadd -a values; else _files; fi',
    '    return',
    '  fi',
    '  if [[ "$PREFIX" == -* ]]; then',
    '    described=(${(f)"$(_xsvc_flags "$cmdpath")"})',
    "    _describe 'flag' described",
    '  else',
    '    described=(${(f)"$(_xsvc_children "$cmdpath")"})',
    "    _describe 'command' described",
    '  fi',
    '}',
    'compdef _xsvc xsvc',
    '',
  ].join('\n');
}
