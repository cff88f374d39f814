/**
 * `@xsvc/cli`: the `xsvc` command as a library. `run(argv, io)` runs one command line in-process (tests,
 * embedding); the bin is a shim over it.
 */

export { ExitCode } from './exit-codes.js';
export type { CliIO, Clock, InStream, OutStream } from './io.js';
export { systemClock } from './io.js';
export { processIo } from './process-io.js';
export type { RunOptions } from './run.js';
export { run } from './run.js';
export { commands } from './table/commands.generated.js';
export type { ArgSpec, CommandSpec, FlagSpec, FlagType } from './table/types.js';
