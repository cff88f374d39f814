import type { Xsvc } from '@xsvc/sdk';
import { TOOLSETS, type ToolsetName } from './areas.js';

/** Options of {@link createXsvcMcpServer}. */
export interface XsvcMcpOptions {
  /** The SDK client the tools call through (its credentials, base URL and retry policy). */
  readonly client: Pick<Xsvc, 'transport'>;
  /** Toolsets to serve (default: all). `explore` is always served. */
  readonly toolsets?: readonly string[] | undefined;
  /** Serve the write tools. Default false: read-only. */
  readonly enableWrites?: boolean | undefined;
  /** Never serve writes, whatever `enableWrites` says (`--read-only`). */
  readonly readOnly?: boolean | undefined;
  /** How long a durable write is waited for before it is reported pending. Default 20 s. */
  readonly writeWaitMs?: number | undefined;
  /** Deadline of one API call, retries included. Default 30 s. */
  readonly callTimeoutMs?: number | undefined;
}

/** The options with defaults applied and toolset names checked. */
export interface ResolvedOptions {
  readonly toolsets: ReadonlySet<ToolsetName>;
  readonly writes: boolean;
  readonly writeWaitMs: number;
  readonly callTimeoutMs: number;
}

/** Applies the defaults; an unknown toolset name is a `TypeError` listing the valid ones. */
export function resolveOptions(options: Omit<XsvcMcpOptions, 'client'>): ResolvedOptions {
  const names = options.toolsets ?? TOOLSETS;
  const unknown = names.filter((n) => !(TOOLSETS as readonly string[]).includes(n));
  if (unknown.length > 0) {
    throw new TypeError(`unknown toolset(s): ${unknown.join(', ')}. Toolsets: ${TOOLSETS.join(', ')}.`);
  }
  return {
    toolsets: new Set(names as readonly ToolsetName[]),
    writes: options.enableWrites === true && options.readOnly !== true,
    writeWaitMs: options.writeWaitMs ?? 20_000,
    callTimeoutMs: options.callTimeoutMs ?? 30_000,
  };
}
