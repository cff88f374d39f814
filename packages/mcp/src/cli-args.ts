import { TOOLSETS } from './areas.js';
import { CODE_TOOLSET } from './code-tool.js';

/** What the command line asks for. */
export interface CliArgs {
  readonly enableWrites: boolean;
  readonly readOnly: boolean;
  readonly toolsets?: readonly string[];
  readonly help: boolean;
  readonly version: boolean;
}

/** A command line the bin refuses (exit code 2). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const USAGE = `Usage: xsvc-mcp [--enable-writes] [--read-only] [--toolsets a,b,…]

Serves the Social Data and Automation Service as MCP tools over stdio.
Environment: XSVC_API_KEY (svc_ key), XSVC_BASE_URL (default http://127.0.0.1:8787).

  --enable-writes   serve the write tools (durable writes, monitors, webhooks, …)
  --read-only       never serve writes (wins over --enable-writes)
  --toolsets a,b    serve only these toolsets (default: every area); \`code\` serves
                    \`call\`, which calls any operation: --toolsets code is the whole
                    API in two tools (explore, call)
  --help, --version

Toolsets: ${TOOLSETS.join(', ')}, ${CODE_TOOLSET}
`;

/** Parses the bin's arguments (`--toolsets a,b` or `--toolsets=a,b`). */
export function parseCliArgs(argv: readonly string[]): CliArgs {
  let enableWrites = false;
  let readOnly = false;
  let help = false;
  let version = false;
  let toolsets: string[] | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? splitOnce(arg) : [arg, undefined];
    switch (flag) {
      case '--enable-writes':
        enableWrites = true;
        break;
      case '--read-only':
        readOnly = true;
        break;
      case '--toolsets': {
        const value = inline ?? argv[++i];
        if (value === undefined || value.startsWith('--'))
          throw new UsageError('--toolsets needs a list: --toolsets tweets,users');
        toolsets = [
          ...(toolsets ?? []),
          ...value
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        ];
        break;
      }
      case '--help':
      case '-h':
        help = true;
        break;
      case '--version':
      case '-v':
        version = true;
        break;
      default:
        throw new UsageError(`unknown argument: ${arg}`);
    }
  }
  return { enableWrites, readOnly, help, version, ...(toolsets && { toolsets }) };
}

function splitOnce(arg: string): [string, string] {
  const at = arg.indexOf('=');
  return [arg.slice(0, at), arg.slice(at + 1)];
}
