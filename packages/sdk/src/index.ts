/**
 * `@xsvc/sdk`: the typed client of the Social Data and Automation Service. Runtime-neutral: imports nothing
 * from `node:*`, runs in Node >= 20, Bun, Deno, Workers and browsers. Schemas live in `@xsvc/sdk/contract`,
 * mocks in `@xsvc/sdk/testing`, the transport layer and route table (for tools built on the SDK) in
 * `@xsvc/sdk/transport`.
 */
export { Xsvc, Xsvc as default } from './client/client.js';
export { SDK_VERSION } from './client/core.js';
export type {
  MachinePayment,
  PaymentChallenge,
  PaymentReceipt,
  RequestSummary,
} from './client/errors.js';
export {
  AbortError,
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  GoneError,
  isApiError,
  isErrorWithCode,
  isXsvcError,
  NotFoundError,
  PaymentRequiredError,
  PermissionDeniedError,
  parsePaymentReceipt,
  paymentAuthorization,
  RateLimitError,
  ServiceError,
  TimeoutError,
  UnprocessableEntityError,
  XsvcError,
} from './client/errors.js';
export type { ExtractionWaitOptions } from './client/extensions/extractions.js';
export { ExtractionFailedError, ExtractionRun } from './client/extensions/extractions.js';
export { verifyWebhookEvent } from './client/extensions/webhooks.js';
export type { Item, OperationId, Output, Params } from './client/op-types.js';
export type { PageCheckpoint } from './client/pagination.js';
export { Page, PagePromise } from './client/pagination.js';
export type * from './client/types.generated.js';
export type { ClientOptions, Hooks, Logger, RequestContext, RequestOptions } from './client/types.js';
export type { MonitorEventOf, TypedWebhookEvent, WebhookTestEventPayload } from './client/webhook-events.js';
export type { WaitOptions, WriteActionData } from './client/write-action.js';
export { WriteAction, WriteActionFailedError } from './client/write-action.js';
