/** The network of a chaos test (see `net-faults.mjs`). */
export interface NetFaults {
  /** Names and the (public-looking) address each resolves to; every other name fails with ENOTFOUND. */
  readonly hosts?: Readonly<Record<string, string>>;
  /** `"address:port"` or `"address"` to the loopback port connected instead; other addresses: ENETUNREACH. */
  readonly routes?: Readonly<Record<string, number>>;
}

/** Installs the faults `current()` answers (asked at each use); answers the function that removes them. */
export function installNetFaults(current: () => NetFaults): () => void;

/** The faults of `XSVC_CHAOS_NET_FILE` or `XSVC_CHAOS_NET`; undefined when neither is set. */
export function netFaultsFromEnv(env?: NodeJS.ProcessEnv): (() => NetFaults) | undefined;

/** What the preload writes on stderr once the faults are installed. */
export const NET_FAULTS_MARKER: string;
