import type { AnyOperation } from '@xsvc/sdk/contract';
import { areaOf } from './areas.js';

/**
 * Operations deliberately not served as tools, with the reason `explore` reports. Each one either puts a
 * secret or a payment in a model's hands, or answers something a tool result cannot carry.
 */
const WITHHELD: Readonly<Record<string, string>> = {
  createApiKey: 'API keys are credentials: create them in the dashboard or the CLI, not through a model.',
  revokeApiKey: 'revoking a key can cut off this very server: do it in the dashboard or the CLI.',
  quickTopUpCredits: 'charges the saved card at once: a person must do it in the dashboard.',
  redirectTopupCheckout:
    'a redirect for the browser of the person who pays: open the `url` of credits topup instead.',
  connectXAccount:
    "needs the platform account's password and 2FA secret: connect it in the dashboard or CLI.",
  submitXAccountConnectionChallenge: 'part of connecting an account: use the dashboard or the CLI.',
  reauthXAccount: "needs the platform account's password: log in again in the dashboard or the CLI.",
  getTrends: 'alias path of trends get.',
  getAllCommunityTweets: 'alias of communities search.',
};

/** Why a whole tag is not served. */
const WITHHELD_TAGS: Readonly<Record<string, string>> = {
  'Guest Wallets': 'guest wallets start payments, which a person must confirm.',
  'Agent Discovery': 'discovery documents and OAuth plumbing: explore covers the catalog.',
};

/**
 * POST operations that only compute or fetch: they take a body for their input but change nothing in the
 * account or on the platform (credits spent by paid reads are not counted as changes), so they are reads.
 */
const QUERY_POSTS: ReadonlySet<string> = new Set([
  'viralScore',
  'estimateExtraction',
  'compose',
  'downloadMedia',
]);

/** Operations that reach beyond the service without a cost or an `/x/` path: deliveries to endpoints. */
const OUTSIDE: ReadonlySet<string> = new Set(['testWebhook', 'resumeWebhook', 'getRadar']);

/** Why an operation is not served as a tool, or undefined when it is. */
export function withheldReason(op: AnyOperation): string | undefined {
  const own = WITHHELD[op.id];
  if (own) return own;
  if (op.deprecated?.operation) return 'deprecated.';
  if (op.responseKind === 'binary') return 'answers a file: download it with the SDK or the CLI.';
  const tag = WITHHELD_TAGS[op.tag];
  if (tag && !areaOf(op)) return tag;
  if (!areaOf(op)) return 'not part of any toolset.';
  return undefined;
}

/**
 * True when the operation changes something: a durable platform write (`writeAction`), or any non-GET
 * operation except the query POSTs above. Writes are served only when writes are enabled.
 */
export function isWrite(op: AnyOperation): boolean {
  return op.writeAction !== undefined || (op.method !== 'GET' && !QUERY_POSTS.has(op.id));
}

/**
 * True when the write may destroy or overwrite something (MCP `destructiveHint`): DELETE, PUT and PATCH
 * replace or remove state, and so do the POSTs that remove (a follower).
 */
export function isDestructive(op: AnyOperation): boolean {
  if (op.method === 'DELETE' || op.method === 'PUT' || op.method === 'PATCH') return true;
  const leaf = op.writeAction ?? op.sdk[op.sdk.length - 1] ?? '';
  return /^(remove|delete|revoke|disconnect|leave|un)/i.test(leaf);
}

/**
 * True when the operation reaches the open world (MCP `openWorldHint`): the platform (`/x/` paths and paid
 * operations, which read it) or third-party endpoints.
 */
export function reachesOutside(op: AnyOperation): boolean {
  return op.path.startsWith('/api/v1/x/') || op.cost.kind !== 'free' || OUTSIDE.has(op.id);
}
