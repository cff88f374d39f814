import { defineFeature } from '../../core/feature.js';
import { registerMcpRoute } from './route.js';

/** The remote MCP endpoint (`/mcp`, spec 5.3), serving `@xsvc/mcp`'s tools over Streamable HTTP. */
export const mcpFeature = defineFeature({ name: 'mcp', routes: registerMcpRoute });
