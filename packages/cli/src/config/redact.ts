/**
 * A key as the CLI prints it: never in full, only its prefix and last 4 characters (`svc_…9f2a`), enough to
 * tell keys apart.
 */
export function redactKey(key: string): string {
  const prefix = /^[a-z]+_/.exec(key)?.[0] ?? '';
  if (key.length < prefix.length + 8) return `${prefix}…`;
  return `${prefix}…${key.slice(-4)}`;
}
