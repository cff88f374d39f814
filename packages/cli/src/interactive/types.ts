import type { Xsvc } from '@xsvc/sdk';

/**
 * The seam between the command layer (commander: parsing, profiles, output, exit codes) and the interactive
 * commands (ink views, loaded lazily so `xsvc --help` stays fast). The command layer builds a
 * {@link InteractiveContext} and calls the command's runner through a dynamic `import()`.
 */

/** Where an interactive command reads and writes. Tests pass fakes; the bin passes the process streams. */
export interface InteractiveIO {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** True when stdout and stdin are terminals: views may render and prompt. */
  readonly interactive: boolean;
  /** False under `NO_COLOR` or when stdout is not a terminal. */
  readonly color: boolean;
}

/** What every interactive command receives. */
export interface InteractiveContext {
  /** An SDK client for the resolved profile (API key and base URL already applied). */
  readonly client: Xsvc;
  readonly io: InteractiveIO;
  /** `--json`: print JSON (JSON Lines for streams) instead of rendering a view. */
  readonly json: boolean;
  /** Aborted on Ctrl-C / SIGTERM; long-running commands stop cleanly and resolve. */
  readonly signal: AbortSignal;
  /** The resolved base URL of the service (for messages and `server start`). */
  readonly baseUrl: string;
  /** The environment (`XSVC_POLL_INTERVAL_MS`, `XSVC_WEBHOOK_SECRET`…); `process.env` when absent. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Where relative paths (`--export out.csv`) are resolved; `process.cwd()` when absent. */
  readonly cwd?: string;
}

/** An interactive command: resolves to the process exit code (see `xsvc help exit-codes`). */
export type InteractiveCommand<Options> = (ctx: InteractiveContext, options: Options) => Promise<number>;

/** How the command layer parses an option's value before handing it to a runner. */
export type InteractiveOptionType = 'string' | 'number' | 'boolean' | 'string[]';

/** One option of an interactive command, registered by the command layer (commander). */
export interface InteractiveOptionSpec {
  /** Commander flag syntax: `--monitor <id>`, `--wait`, `--events <types...>`. */
  readonly flag: string;
  /** Key of the parsed value in the options object (commander's camelCase attribute name). */
  readonly key: string;
  readonly type: InteractiveOptionType;
  readonly description: string;
  readonly required: boolean;
  /** The allowed values, when the option takes one of a fixed set. */
  readonly choices?: readonly string[];
}

/** One positional argument of an interactive command (`<tool>`, `<tweet-url>`). */
export interface InteractiveArgumentSpec {
  /** Name shown in the usage line. */
  readonly name: string;
  /** Key of the value in the options object handed to the runner. */
  readonly key: string;
  readonly description: string;
  readonly required: boolean;
  readonly choices?: readonly string[];
}

/**
 * What the command layer hands a runner: positional arguments and options in one object, keyed by their
 * spec's `key`, values as parsed (strings, numbers, booleans, string arrays). Runners validate them and
 * answer bad input with exit code 2 and a message naming the flag.
 */
export type RawOptions = Readonly<Record<string, unknown>>;

/** A lazily loaded interactive command module. */
export interface InteractiveModule {
  readonly run: InteractiveCommand<RawOptions>;
}

/** An entry of the interactive command table (`src/interactive/index.ts`). */
export interface InteractiveCommandSpec {
  /** The command path, words separated by one space: `monitors watch`. */
  readonly name: string;
  readonly description: string;
  readonly arguments: readonly InteractiveArgumentSpec[];
  readonly options: readonly InteractiveOptionSpec[];
  /** A few example invocations, without the leading `xsvc`. */
  readonly examples: readonly string[];
  /** Loads the runner (ink and react stay out of the startup path). */
  readonly load: () => Promise<InteractiveModule>;
}
