/**
 * `@xsvc/sdk/testing`: mock the service in your own tests. msw handlers for every operation, generated from
 * the contract, answering schema-valid examples that you can override per test (typed and deep-merged), with
 * errors injected by code and durable writes that reach a terminal state.
 */
export { exampleFor } from './examples.js';
export type {
  DeepPartial,
  MockAnswer,
  MockErrorSpec,
  MockOptions,
  MockRequestInfo,
  MockWriteOptions,
} from './handlers.js';
export { createHandlers, deepMerge, exampleOf, exampleResponse, mockError } from './handlers.js';
