const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'] as const;

/**
 * A spinner frame chosen by a counter the caller advances (a poll, a tick), not by a timer of its own, so a
 * view renders the same frame for the same state.
 */
export function spinnerFrame(step: number): string {
  return FRAMES[((step % FRAMES.length) + FRAMES.length) % FRAMES.length]!;
}
