import type { AnyOperation } from '../operation.js';
import { accountOperations } from './account.js';
import { apiKeysOperations } from './api-keys.js';
import { articlesOperations } from './articles.js';
import { communitiesOperations } from './communities.js';
import { compositionOperations } from './composition.js';
import { discoveryOperations } from './discovery.js';
import { drawsOperations } from './draws.js';
import { eventsOperations } from './events.js';
import { extractionsOperations } from './extractions.js';
import { guestWalletsOperations } from './guest-wallets.js';
import { listsOperations } from './lists.js';
import { mediaOperations } from './media.js';
import { monitorsOperations } from './monitors.js';
import { subscribeOperations } from './subscribe.js';
import { supportOperations } from './support.js';
import { trendsOperations } from './trends.js';
import { tweetsOperations } from './tweets.js';
import { usersOperations } from './users.js';
import { webhooksOperations } from './webhooks.js';
import { xAccountsOperations } from './x-accounts.js';
import { xWriteOperations } from './x-write.js';

const defined = [
  ...accountOperations,
  ...apiKeysOperations,
  ...subscribeOperations,
  ...compositionOperations,
  ...monitorsOperations,
  ...eventsOperations,
  ...extractionsOperations,
  ...drawsOperations,
  ...webhooksOperations,
  ...tweetsOperations,
  ...xWriteOperations,
  ...trendsOperations,
  ...articlesOperations,
  ...usersOperations,
  ...mediaOperations,
  ...xAccountsOperations,
  ...supportOperations,
  ...guestWalletsOperations,
  ...communitiesOperations,
  ...listsOperations,
  ...discoveryOperations,
] as const satisfies readonly AnyOperation[];

/** The precise (literal) type of every operation, for deriving the client's parameter and answer types. */
export type DefinedOperations = typeof defined;

/**
 * Every operation of the service, in the reference's tag order. The single source for the SDK, the
 * server, the OpenAPI document, the mocks, the CLI and MCP.
 */
export const operations: readonly AnyOperation[] = defined;
