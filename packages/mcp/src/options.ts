import type { Xsvc } from '@xsvc/sdk';
import { TOOLSETS, type ToolsetName } from './areas.js';
import { CODE_TOOLSET } from './code-tool.js';

/** Options of {@link createXsvcMcpServer}. */
export interface XsvcMcpOptions {
  /** The SDK client the tools call through (its credentials, base URL and retry policy). */
  readonly client: Pick<Xsvc, 'transport'>;
  /**
   * Toolsets to serve (default: every area). `explore` is always served. `code` adds `call`, which calls any
   * operation by id: `['code']` alone serves the whole API as two tools.
   */
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
  /** The `code` toolset: serve `call`, which reaches every operation of the other toolsets too. */
  readonly code: boolean;
  readonly writes: boolean;
  readonly writeWaitMs: number;
  readonly callTimeoutMs: number;
}

/** Applies the defaults; an unknown toolset name is a `TypeError` listing the valid ones. */
export function resolveOptions(options: Omit<XsvcMcpOptions, 'client'>): ResolvedOptions {
  const names = options.toolsets ?? TOOLSETS;
  const unknown = names.filter((n) => n !== CODE_TOOLSET && !(TOOLSETS as readonly string[]).includes(n));
  if (unknown.length > 0) {
    throw new TypeError(
      `unknown toolset(s): ${unknown.join(', ')}. Toolsets: ${TOOLSETS.join(', ')}, ${CODE_TOOLSET}.`,
    );
  }
  return {
    toolsets: new Set(names.filter((n) => n !== CODE_TOOLSET) as ToolsetName[]),
    code: names.includes(CODE_TOOLSET),
    writes: options.enableWrites === true && options.readOnly !== true,
    writeWaitMs: options.writeWaitMs ?? 20_000,
    callTimeoutMs: options.callTimeoutMs ?? 30_000,
  };
}
