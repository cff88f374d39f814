/** Quotes a word for a POSIX shell, only when it needs it: `from:jack` stays, `a b` becomes `'a b'`. */
export function shellQuote(word: string): string {
  if (word !== '' && /^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A command line with `--cursor` set to `cursor` (replacing any given), to resume a listing. */
export function resumeLine(argv: readonly string[], cursor: string): string {
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--cursor') i++;
    else if (!a.startsWith('--cursor=')) words.push(a);
  }
  return ['xsvc', ...words, '--cursor', cursor].map(shellQuote).join(' ');
}
