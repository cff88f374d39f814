/**
 * `@xsvc/sdk/transport`: the low-level layer the client's methods run on, for tools built on the SDK (the
 * CLI, the MCP server) that call an operation by its id rather than by a method. Not needed by apps: use
 * `new Xsvc()` and its methods. `xsvc.transport` is the client's transport; `routes` holds every
 * operation's route, by operation id, for `xsvc.transport.call(routes.lookupTweet, params)`.
 */
import type { Xsvc } from '@xsvc/sdk';

/** The client's transport (`xsvc.transport`): base URL, credentials, retries and `call(route, params)`. */
export type Transport = Xsvc['transport'];
export type { CallParams, CallResult } from './client/core.js';
export { routes } from './client/routes.generated.js';
export type { Route } from './client/types.js';
