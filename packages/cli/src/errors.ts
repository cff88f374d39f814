import { ExitCode, type ExitCodeValue } from './exit-codes.js';

/**
 * Errors the CLI raises itself. Commands throw; `run` catches in one place, prints the message and what to
 * do next on stderr, and exits with the error's code.
 */
export class CliError extends Error {
  override readonly name: string = 'CliError';
  constructor(
    message: string,
    /** The exit code. */
    readonly exitCode: ExitCodeValue = ExitCode.error,
    /** What to do next, printed under the message. */
    readonly next?: string,
    /** The error code printed (the spec's code for the same mistake where one exists). */
    readonly code: string = 'cli_error',
  ) {
    super(message);
  }
}

/**
 * A command line the CLI refuses before sending anything (exit code 2). `code` is the spec's code for the
 * same mistake made against the API (`invalid_input`, `missing_params`), so scripts see one vocabulary.
 */
export class UsageError extends CliError {
  override readonly name = 'UsageError';
  constructor(
    message: string,
    next?: string,
    code = 'invalid_input',
    /** The flag or argument to fix, as typed (`--limit`, `<q>`). */
    readonly flag?: string,
  ) {
    super(message, ExitCode.usage, next, code);
  }
}

/** No credentials for an operation that needs them (exit code 4). */
export class AuthRequiredError extends CliError {
  override readonly name = 'AuthRequiredError';
  constructor(message: string, next: string) {
    super(message, ExitCode.auth, next, 'unauthenticated');
  }
}
