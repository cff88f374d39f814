import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { Xsvc } from '@xsvc/sdk';
import { parseCliArgs, USAGE, UsageError } from './cli-args.js';
import { createXsvcMcpServer } from './server.js';
import { VERSION } from './version.js';

/**
 * `xsvc-mcp`: serves the tools over stdio. stdout carries the protocol only, so every message goes to
 * stderr. Returns the exit code for a command line it refuses; otherwise serves until stdin closes.
 */
export function main(argv: readonly string[]): number | undefined {
  let args: ReturnType<typeof parseCliArgs>;
  try {
    args = parseCliArgs(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`xsvc-mcp: ${err.message}\n\n${USAGE}`);
      return 2;
    }
    throw err;
  }
  if (args.help) {
    process.stderr.write(USAGE);
    return 0;
  }
  if (args.version) {
    process.stderr.write(`${VERSION}\n`);
    return 0;
  }
  // The SDK reads XSVC_API_KEY and XSVC_BASE_URL from the environment.
  const client = new Xsvc({ logger: { warn: (m) => process.stderr.write(`xsvc-mcp: ${m}\n`) } });
  const options = {
    client,
    enableWrites: args.enableWrites,
    readOnly: args.readOnly,
    ...(args.toolsets && { toolsets: args.toolsets }),
  };
  try {
    createXsvcMcpServer(options); // checks the options before the first client connects
  } catch (err) {
    process.stderr.write(`xsvc-mcp: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
  if (!client.transport.authenticated) {
    process.stderr.write('xsvc-mcp: XSVC_API_KEY is not set: calls will answer 401 until it is.\n');
  }
  serveStdio(() => createXsvcMcpServer(options), {
    onerror: (e) => process.stderr.write(`xsvc-mcp: ${e.message}\n`),
  });
  return undefined;
}
