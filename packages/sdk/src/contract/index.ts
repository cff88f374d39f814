/**
 * `@xsvc/sdk/contract`: every operation, schema, error code, event type and limit of the service, defined
 * once with zod. Depends on zod alone.
 */

export type {
  ErrorBody,
  ErrorCode,
  ErrorInfo,
  ErrorType,
  RetryClass,
  StructuredErrorBody,
} from './errors.js';
export { errorCatalog, errorCodes, errorInfo, isErrorCode } from './errors.js';
export type {
  EventType,
  ProfileEventData,
  ProfileEventType,
  TweetEventData,
  TweetEventType,
} from './events.js';
export {
  EVENT_TYPES,
  EventTypeArray,
  EventTypeSchema,
  PROFILE_EVENT_TYPES,
  ProfileEventDataSchema,
  TWEET_EVENT_TYPES,
  TweetEventDataSchema,
  TweetEventTypeArray,
  WEBHOOK_TEST_EVENT_TYPE,
  WebhookEventPayloadSchema,
  WebhookTestPayloadSchema,
} from './events.js';
export {
  CHECKOUT_IDEMPOTENCY_KEY,
  requestHeader,
  SUPPORT_IDEMPOTENCY_KEY_HEADER,
  takesIdempotencyKey,
  WRITE_IDEMPOTENCY_KEY,
} from './headers.js';
export type { Schema, SchemaCheck, ZodDef } from './introspect.js';
export {
  arrayElement,
  checkBound,
  checksOf,
  checksWithFormat,
  childSchemas,
  defaultValueOf,
  defType,
  descriptionOf,
  enumValues,
  innerSchema,
  isCoerced,
  isOpenEnum,
  isSchema,
  lazyTarget,
  literalValues,
  objectShape,
  recordValue,
  unionOptions,
  unwrapSchema,
  WRAPPER_TYPES,
  zodDef,
} from './introspect.js';
export type { ExportFormat } from './limits.js';
export { CONTRACT_HEADER, EXPORT_FORMATS, limits, OPT_IN_CONTRACT } from './limits.js';
export type { BodyOf, ContractOperationId, PathParamsOf, QueryOf } from './lookup.js';
export { findOperation, operationsById } from './lookup.js';
export type {
  AnyOperation,
  AuthMode,
  BodyEncoding,
  Cost,
  Deprecation,
  HeaderName,
  HttpMethod,
  Operation,
  PaginationStyle,
  RequestHeader,
  RequestHeaders,
  ResponseKind,
  Tag,
} from './operation.js';
export { defineOperation } from './operation.js';
export { operations } from './operations/index.js';
export { snakeCase, toOptInContract } from './opt-in.js';
export {
  markResources,
  RESOURCE_KINDS,
  type ResourceKind,
  resourceKindOf,
  unprefixedId,
} from './opt-in-resources.js';
export * as schemas from './schemas/index.js';
export { CreditString, IsoDate, IsoDateTime, loosen, NumericId, openEnum, strictify } from './zod-helpers.js';
