/**
 * `@xsvc/sdk/testing`: mock the service in your own tests. msw handlers for every operation, generated from
 * the contract, answering schema-valid examples that you can override per test.
 */
export { exampleFor } from './examples.js';
export type { MockAnswer, MockOptions } from './handlers.js';
export { createHandlers, exampleResponse, mockError } from './handlers.js';
