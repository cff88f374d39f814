/** The exit codes of `xsvc` (see `xsvc help exit-codes`). */
export const ExitCode = {
  ok: 0,
  error: 1,
  usage: 2,
  auth: 4,
  paymentRequired: 5,
  rateLimited: 6,
  writePending: 8,
  interrupted: 130,
} as const;

/** One of the documented exit codes. */
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** What each exit code means, for `xsvc help exit-codes`. */
export const EXIT_CODE_MEANINGS: readonly (readonly [ExitCodeValue, string])[] = [
  [ExitCode.ok, 'success'],
  [ExitCode.error, 'the command failed (the service refused it, a network error, a failed write)'],
  [
    ExitCode.usage,
    'usage error: unknown command or flag, invalid value, a missing answer (nothing was sent)',
  ],
  [ExitCode.auth, 'authentication: no API key, or the key was refused (401); run `xsvc login`'],
  [
    ExitCode.paymentRequired,
    'payment required (402): no subscription or not enough credits; nothing was charged',
  ],
  [ExitCode.rateLimited, 'rate limited (429): retry after the time printed'],
  [ExitCode.writePending, 'a durable write is still pending: watch it with `xsvc write-actions watch <id>`'],
  [ExitCode.interrupted, 'interrupted (Ctrl-C or SIGTERM)'],
];
