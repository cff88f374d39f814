import { Xsvc } from '@xsvc/sdk';
import type { Credentials } from '../config/resolve.js';
import { UsageError } from '../errors.js';
import type { CliIO } from '../io.js';
import type { Output } from '../output/output.js';
import { isSdkDeprecationNotice } from './deprecations.js';

/** `XSVC_MAX_RETRIES` (0-10): retries of transient failures and rate limits; the SDK's default (2) otherwise. */
export function maxRetriesOf(env: CliIO['env']): number | undefined {
  const v = env.XSVC_MAX_RETRIES;
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 10) {
    throw new UsageError(`XSVC_MAX_RETRIES must be a whole number from 0 to 10, got "${v}"`);
  }
  return n;
}

/**
 * An SDK client for the resolved credentials; the SDK's warnings go to stderr, except its deprecation
 * notices: the command warns about what the user sent itself, naming the flag (see `deprecations.ts`).
 */
export function createClient(io: CliIO, creds: Credentials, out: Output): Xsvc {
  const maxRetries = maxRetriesOf(io.env);
  return new Xsvc({
    ...(maxRetries !== undefined && { maxRetries }),
    ...(creds.apiKey !== undefined && { apiKey: creds.apiKey }),
    baseUrl: creds.baseUrl,
    ...(io.fetch && { fetch: io.fetch }),
    logger: {
      warn: (message) => {
        if (!isSdkDeprecationNotice(message)) out.note(`${out.errStyle.yellow('warning:')} ${message}`);
      },
    },
  });
}
