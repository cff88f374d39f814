/** The package version, announced to MCP clients as the server's version. */
export const VERSION = '0.1.0';
