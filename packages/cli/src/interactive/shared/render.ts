import { type Instance, render } from 'ink';
import type { ReactElement } from 'react';
import type { InteractiveContext } from '../types.js';

/**
 * Mounts an ink view on the command's own streams (not the process globals, so tests can pass fakes).
 * Ctrl-C is left to the command layer's signal: ink neither exits on it nor patches `console`.
 */
export function mountView(ctx: InteractiveContext, view: ReactElement): Instance {
  return render(view, {
    stdout: ctx.io.stdout as NodeJS.WriteStream,
    stderr: ctx.io.stderr as NodeJS.WriteStream,
    stdin: ctx.io.stdin as NodeJS.ReadStream,
    exitOnCtrlC: false,
    patchConsole: false,
  });
}

/** Renders the last state of a view, unmounts it and waits until ink has flushed its output. */
export async function closeView(instance: Instance, last?: ReactElement): Promise<void> {
  if (last) instance.rerender(last);
  instance.unmount();
  await instance.waitUntilExit();
}
