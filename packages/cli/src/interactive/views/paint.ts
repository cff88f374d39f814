/**
 * Colour props for ink's `<Text>` that disappear when colour is off (`NO_COLOR`, or not a terminal), so
 * views never emit colour escapes a user did not ask for.
 */
export function paint(on: boolean, color: string): { color?: string } {
  return on ? { color } : {};
}

/** `dimColor` when colour is on. */
export function dim(on: boolean): { dimColor?: boolean } {
  return on ? { dimColor: true } : {};
}
