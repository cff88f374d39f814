import { errorHints } from '../table/error-hints.generated.js';
import { commandLine } from '../table/tree.js';

const or = (...parts: (string | undefined)[]) =>
  parts
    .filter((p): p is string => p !== undefined)
    .map((p) => `\`${p}\``)
    .join(' or ');

/** Next steps for codes whose family's advice would mislead; commands named from the table. */
function byCode(code: string): string | undefined {
  switch (code) {
    case 'no_cached_style':
      return `Analyze the style first (${or(commandLine('analyzeStyle', '<username>'))}), then run this again.`;
    case 'no_subscription':
    case 'subscription_inactive':
      return `Nothing was charged. Subscribe with ${or(commandLine('subscribe'))}, then run this again.`;
    case 'x_auth_failure':
    case 'account_needs_reauth':
      return `The connected account must log in again: ${or(commandLine('reauthXAccount', '<id> --password …'))}.`;
    case 'monitor_already_exists':
      return `A monitor for this already exists: find it with ${or(commandLine('listMonitors'))} and update it instead.`;
    case 'coverage_cursor_gone':
      return 'The cursor expired: run the command again without --cursor (items may repeat).';
    case 'x_daily_limit':
      return "The connected account reached the platform's daily limit: try again tomorrow.";
    case 'x_write_ambiguous':
      return 'The write may have happened: check the target before sending it again.';
    case 'idempotency_conflict':
    case 'idempotency_key_conflict':
      return 'This --idempotency-key was used for a different request: use a new key.';
    default:
      return undefined;
  }
}

/** What to do after an error of the service, by code, else by HTTP status (spec part 7). */
export function nextStep(
  code: string,
  status: number,
  retryAfter: number | undefined,
  baseUrl?: string,
): string {
  const own = byCode(code);
  if (own) return own;
  switch (status) {
    case 400:
    case 413:
      return "Fix the request (see the command's --help); retrying as is cannot help.";
    case 401:
      return `The service refused the API key${baseUrl ? ` for ${baseUrl}` : ''}: run \`xsvc login\`, or set XSVC_API_KEY.`;
    case 402: {
      const topup = or(
        commandLine('topUpCredits', '--dollars 10'),
        commandLine('quickTopUpCredits', '--dollars 10'),
      );
      // What the 402 code means comes from the contract's catalog; every 402 adds that nothing was charged.
      return `Billing: ${errorHints[code] ?? 'payment is required'}. Nothing was charged. Top up with ${topup}, check the balance with ${or(commandLine('getCredits'))}, or turn on auto top-up in the dashboard.`;
    }
    case 403:
      return 'Not permitted for this account or target: retrying will not help.';
    case 404:
      return 'Not found: check the id or username.';
    case 409:
      return 'Conflict with the current state: read it before changing it.';
    case 410:
      return 'Gone: start over.';
    case 422:
      return 'The platform refused it: change the request before sending it again.';
    case 429:
      return retryAfter !== undefined
        ? `Rate limited: retry after ${retryAfter} s.`
        : 'Rate limited: wait a little, then retry.';
    default:
      return status >= 500 || status === 424
        ? 'A temporary failure of the service (already retried): try again in a little while.'
        : 'See the message above.';
  }
}
