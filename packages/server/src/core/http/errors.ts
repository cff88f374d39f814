import { errorInfo, toOptInContract } from '@xsvc/sdk/contract';

/**
 * An error answer with the spec's code. Handlers throw it; the one error handler renders it in the
 * caller's contract. The HTTP status comes from the contract's error catalog, in one place.
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly status: number;
  constructor(
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    status?: number,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = status ?? errorInfo(code).status;
  }
}

/** Shorthands for the common answers. */
export const errors = {
  invalidInput: (message: string, extra?: Record<string, unknown>) =>
    new HttpError('invalid_input', message, extra),
  unauthenticated: (message = 'missing or invalid credentials') => new HttpError('unauthenticated', message),
  notFound: (code: string, message: string, extra?: Record<string, unknown>) =>
    new HttpError(code, message, extra),
  insufficientCredits: (needed: bigint | number, available: bigint | number) =>
    new HttpError('insufficient_credits', `this call needs ${needed} credits; ${available} are available`, {
      creditsRequired: String(needed),
      creditsAvailable: String(available),
    }),
};

/** Renders an error body in the default contract or in the opt-in one (spec part 7). */
export function errorBody(err: HttpError, optIn: boolean): Record<string, unknown> {
  if (optIn) {
    const info = errorInfo(err.code, err.status);
    // The extra fields follow the opt-in contract too (spec 4.1): snake_case keys, Unix-second times.
    // (Wrapped, so that a page carried inside an error keeps its own pagination fields.)
    const extra = (toOptInContract({ extra: err.extra }) as { extra: Record<string, unknown> }).extra;
    return { error: { ...extra, type: info.type, code: err.code, message: err.message } };
  }
  return { error: err.code, message: err.message, ...err.extra };
}
