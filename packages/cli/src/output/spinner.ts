import type { OutStream } from '../io.js';

/** A progress line on stderr. */
export interface Spinner {
  /** Replaces the text shown beside the spinner. */
  update(text: string): void;
  /** Erases the line. */
  stop(): void;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const NOOP: Spinner = { update: () => {}, stop: () => {} };

/**
 * A spinner on stderr, only when stderr is a terminal: stdout stays clean for pipes, and logs of scripts and
 * CI never fill with frames.
 */
export function startSpinner(stderr: OutStream, text: string): Spinner {
  if (stderr.isTTY !== true) return NOOP;
  let frame = 0;
  let current = text;
  const draw = () => {
    stderr.write(`\r\u001b[2K${FRAMES[frame % FRAMES.length]} ${current}`);
    frame++;
  };
  draw();
  const timer = setInterval(draw, 80);
  timer.unref?.();
  return {
    update(next) {
      current = next;
      draw();
    },
    stop() {
      clearInterval(timer);
      stderr.write('\r\u001b[2K');
    },
  };
}
