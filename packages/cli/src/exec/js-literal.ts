/** A value as TypeScript source: single-quoted strings, bare keys where they are identifiers. */
export function jsLiteral(
  value: unknown,
  files: Readonly<Record<string, string>> = {},
  key?: string,
): string {
  if (key !== undefined && files[key] !== undefined) return `await openAsBlob(${quote(files[key])})`;
  if (typeof value === 'string') return quote(value);
  if (value === null || typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return `[${value.map((v) => jsLiteral(v)).join(', ')}]`;
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return '{}';
  const body = entries.map(
    ([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : quote(k)}: ${jsLiteral(v, files, k)}`,
  );
  return `{ ${body.join(', ')} }`;
}

function quote(text: string): string {
  return `'${JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}
