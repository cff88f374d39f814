/**
 * The code of an error commander threw (`commander.helpDisplayed`, `commander.unknownOption`), known by its
 * fields rather than its class: bundled, commander's classes are renamed (`CommanderError2`), and a line
 * parsed without commander (`program/fast-path.ts`) must not load it to ask. Undefined for any other error.
 */
export function commanderCode(err: unknown): string | undefined {
  if (!(err instanceof Error)) return undefined;
  const { code, exitCode } = err as { code?: unknown; exitCode?: unknown };
  return typeof code === 'string' && code.startsWith('commander.') && typeof exitCode === 'number'
    ? code
    : undefined;
}
