/**
 * The choice a value names, ignoring case (`latest` names `Latest`): people type choices as they say them,
 * and the contract's spelling is what is sent. An exact match wins; a case-insensitive one must be unique
 * (two choices differing only by case would be ambiguous). Undefined when it names none.
 */
export function matchChoice(choices: readonly string[], value: string): string | undefined {
  if (choices.includes(value)) return value;
  const lower = value.toLowerCase();
  const found = choices.filter((c) => c.toLowerCase() === lower);
  return found.length === 1 ? found[0] : undefined;
}
