import { registerPlatformErrors } from '../../core/platform/errors.js';

/**
 * Errors of the simulated platform and its control operations. Each carries one of the spec's error codes,
 * so a route maps it to its HTTP answer in one place (`invalid_input` 400, `*_not_found` 404).
 */
export const SIM_ERROR_CODES = ['invalid_input', 'user_not_found', 'tweet_not_found'] as const;

/** A code of {@link SIM_ERROR_CODES}. */
export type SimErrorCode = (typeof SIM_ERROR_CODES)[number];

/** The base class: a failure the caller caused (bad input, unknown user or tweet), never a server fault. */
export class SimulatedPlatformError extends Error {
  override readonly name: string = 'SimulatedPlatformError';
  constructor(
    readonly code: SimErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A pagination cursor that this platform did not issue, or issued for another listing: 400 `invalid_input`. */
export class InvalidCursorError extends SimulatedPlatformError {
  override readonly name = 'InvalidCursorError';
  constructor(message = 'invalid cursor', options?: { cause?: unknown }) {
    super('invalid_input', message, options);
  }
}

/** Type guard for {@link SimulatedPlatformError} (and so {@link InvalidCursorError}). */
export function isSimulatedPlatformError(err: unknown): err is SimulatedPlatformError {
  return err instanceof SimulatedPlatformError;
}

registerPlatformErrors('simulated', (err) =>
  isSimulatedPlatformError(err) ? { code: err.code, message: err.message } : undefined,
);
