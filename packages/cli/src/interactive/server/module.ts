/**
 * The part of `@xsvc/server` that `xsvc server start` uses, typed structurally: the server is an optional
 * peer of the CLI, loaded only when asked for, so the CLI neither bundles nor requires it.
 */

/** The server's validated configuration (the fields read here). */
export interface ServerConfigLike {
  readonly port: number;
  readonly host: string;
  readonly platform: string;
  readonly databaseUrl: string;
  readonly keyFile?: string | undefined;
  /** The public origin, when the server is deployed behind one. */
  readonly publicUrl?: string | undefined;
}

/** A built server, not listening yet. */
export interface ServerLike {
  readonly app: { listen(options: { port: number; host: string }): Promise<string> };
  readonly services: { readonly database: { readonly dialect: string } };
  close(): Promise<void>;
}

/** What the first start created: the owner's API key, shown once. */
export interface BootstrapLike {
  readonly created: boolean;
  readonly apiKey?: string | undefined;
  readonly keyFile?: string | undefined;
}

/** The exports of `@xsvc/server` used by `xsvc server start`. */
export interface ServerModuleLike {
  configFromEnv(env: Readonly<Record<string, string | undefined>>): ServerConfigLike;
  parseConfig(input: Readonly<Record<string, unknown>>): ServerConfigLike;
  createServer(config: ServerConfigLike): Promise<ServerLike>;
  bootstrapOwner(
    database: ServerLike['services']['database'],
    config: ServerConfigLike,
    now: number,
  ): Promise<BootstrapLike>;
  readonly ConfigError: abstract new (...args: never[]) => Error;
}

/** Loads the server module; tests pass their own. */
export type ServerLoader = () => Promise<ServerModuleLike>;

const SERVER_PACKAGE = '@xsvc/server';

/** Imports `@xsvc/server` from wherever Node resolves it (a sibling global install works too). */
export const importServer: ServerLoader = async () => {
  // A variable specifier: the server is optional and is not bundled into the CLI.
  const specifier = SERVER_PACKAGE;
  const mod = (await import(specifier)) as Partial<ServerModuleLike>;
  for (const name of [
    'configFromEnv',
    'parseConfig',
    'createServer',
    'bootstrapOwner',
    'ConfigError',
  ] as const) {
    if (typeof mod[name] !== 'function') {
      throw new Error(`${SERVER_PACKAGE} does not export ${name}: install a version matching this CLI`);
    }
  }
  return mod as ServerModuleLike;
};

/** True when an import failed because `@xsvc/server` itself is not installed (not a broken install). */
export function isServerMissing(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    err.message.includes(`'${SERVER_PACKAGE}'`)
  );
}

/** What to run when the server is missing (spec: exit code 1 with these exact commands). */
export const INSTALL_HINT = [
  `${SERVER_PACKAGE} is not installed. Install it, then run \`xsvc server start\` again:`,
  '',
  `  npm i -g ${SERVER_PACKAGE}`,
  '',
  'or run it once without installing:',
  '',
  `  npx ${SERVER_PACKAGE}`,
].join('\n');
