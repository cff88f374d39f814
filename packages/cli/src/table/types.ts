/**
 * The command table: every operation of the contract as the CLI needs it to parse, describe, complete and
 * run a command, without loading a single zod schema. Generated at build time (`scripts/generate-table.ts`)
 * into `commands.generated.ts`, so `xsvc --help` starts fast.
 */

/** How a flag's text is turned into the value sent. */
export type FlagType =
  /** Any text. */
  | 'string'
  /** A number (`--limit 50`). */
  | 'number'
  /** `--flag` sends true, `--no-flag` false. */
  | 'boolean'
  /** One of `choices`. */
  | 'enum'
  /** Comma-separated values, repeatable (`--events a,b --events c`); `choices` when they are an enum. */
  | 'list'
  /** JSON text, `@file.json`, or `-` for stdin. */
  | 'json'
  /** A path to a file, uploaded as multipart. */
  | 'file';

/** One query or body parameter as a flag. */
export interface FlagSpec {
  /** The flag without dashes, kebab-case (`query-type`). */
  readonly flag: string;
  /** The parameter's name in the contract (`queryType`). */
  readonly key: string;
  readonly type: FlagType;
  readonly required?: boolean;
  readonly choices?: readonly string[];
  readonly description?: string;
  /** A second, shorter name (`--events` for `--event-types`). */
  readonly alias?: string;
  /** The replacement, when the parameter is deprecated. */
  readonly deprecated?: string;
  /**
   * A secret (a password, a TOTP secret): never taken as a value on the command line, where it would end
   * up in the shell's history. It comes from `--<flag>-stdin`, this environment variable, or a hidden prompt.
   */
  readonly secret?: string;
}

/** A positional argument: a path parameter, or the one obvious required parameter (a search query). */
export interface ArgSpec {
  /** Name shown in usage (`id`, `q`). */
  readonly name: string;
  /** The parameter's name in the contract. */
  readonly key: string;
  /** Path parameters are required; the obvious parameter may also come from its flag or `--data`. */
  readonly required: boolean;
  readonly description?: string;
}

/** One operation of the contract as a command (`xsvc monitors keywords create`). */
export interface CommandSpec {
  /** The command path: SDK resource path and method, kebab-case (`['monitors', 'keywords', 'create']`). */
  readonly path: readonly string[];
  /** The SDK path (`['monitors', 'keywords', 'create']`), for the SDK code `--dry-run` prints. */
  readonly sdk: readonly string[];
  /** The operation id in the contract (`createKeywordMonitor`). */
  readonly op: string;
  readonly method: string;
  /** Full path template from the origin (`/api/v1/monitors/keywords/{id}`). */
  readonly route: string;
  readonly summary: string;
  readonly description?: string;
  /** A command line that works, without the leading `xsvc`. */
  readonly example: string;
  readonly args: readonly ArgSpec[];
  readonly flags: readonly FlagSpec[];
  /** False for public operations (documentation search, discovery). */
  readonly auth: boolean;
  /** How the body is encoded, when the operation has one. */
  readonly body?: 'json' | 'multipart' | 'form';
  /** Pagination style of a listing. */
  readonly pagination?: 'A' | 'B';
  /** The items array of a listing (`tweets`). */
  readonly items?: string;
  /** The page-size parameter that `--limit` also sets, with its bounds. */
  readonly pageSize?: { readonly key: string; readonly min: number; readonly max: number };
  /** True for a durable platform write (answers a write action: `--wait` / `--no-wait`). */
  readonly write?: boolean;
  /** True when the operation takes an `Idempotency-Key` (the contract declares it): `--idempotency-key`. */
  readonly idempotencyKey?: boolean;
  /** True when success is a redirect (an authorization page): the CLI prints the URL to open instead. */
  readonly redirect?: boolean;
  /** What the success answer carries when it is not JSON. */
  readonly response?: 'binary' | 'text' | 'empty';
  readonly deprecated?: boolean;
  /**
   * The machine-payment price in micro-US-dollars, when the operation accepts `Authorization: Payment`
   * (spec 5.4): the command then takes `--pay`, and without an API key it offers to pay on a terminal.
   */
  readonly machinePayment?: number;
}
