/**
 * `@xsvc/mcp`: the Social Data and Automation Service as MCP tools, generated from the SDK's contract.
 * `createXsvcMcpServer` builds the server for a given SDK client; the `xsvc-mcp` bin serves it over stdio.
 * Runtime-neutral: nothing here imports `node:*` (the bin does).
 */
export type { ToolsetName } from './areas.js';
export { TOOLSETS } from './areas.js';
export { CODE_TOOLSET } from './code-tool.js';
export type { ToolDescription } from './describe.js';
export { describeTools, exploreCatalog } from './describe.js';
export type { ToolFailure } from './errors.js';
export type { ExploreInput } from './explore.js';
export type { XsvcMcpHttpHandler, XsvcMcpHttpOptions } from './http.js';
export { createXsvcMcpHttpHandler } from './http.js';
export type { JsonSchema } from './json-schema.js';
export { compactJsonSchema } from './json-schema.js';
export type { XsvcMcpOptions } from './options.js';
export type { CallOutput, ExploreOutput, ReadOutput, WriteOutput } from './output-schema.js';
export { createXsvcMcpServer } from './server.js';
export { VERSION } from './version.js';
