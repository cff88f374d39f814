import { authentication } from './authentication.js';
import { contracts } from './contracts.js';
import { deprecationsGuide } from './deprecations.js';
import { errors } from './errors.js';
import type { Guide } from './guide.js';
import { limits } from './limits.js';
import { mcp } from './mcp.js';
import { pagination } from './pagination.js';
import { selfHosting } from './self-hosting.js';
import { webhooks } from './webhooks.js';

export type { Guide } from './guide.js';
export { renderGuide } from './guide.js';

/** Every guide the server serves under `/docs/` and searches with `/ask`. */
export const guides: readonly Guide[] = [
  authentication,
  pagination,
  errors,
  limits,
  webhooks,
  contracts,
  deprecationsGuide(),
  mcp,
  selfHosting,
];
