/**
 * How a platform's own errors become the spec's answers, without `core/` knowing any platform: each platform
 * registers one mapping when its module loads ({@link registerPlatformErrors}), and `core/http/platform-errors`
 * asks every registered mapping ({@link mapPlatformError}). The platform-independent failures
 * (`PlatformUnavailableError`, `PlatformAccountError`) are classes of `core/platform/platform.ts` and need no
 * mapping.
 */

/** What a platform's error answers: one of the spec's error codes (4xx: the caller's fault) and its message. */
export interface PlatformErrorAnswer {
  code: string;
  message: string;
  extra?: Record<string, unknown> | undefined;
}

/** A platform's mapping: its answer for an error it threw, or `undefined` for an error that is not its own. */
export type PlatformErrorMapping = (err: unknown) => PlatformErrorAnswer | undefined;

const mappings = new Map<string, PlatformErrorMapping>();

/**
 * Registers the mapping of platform `name` (`simulated`, `xapi`). Registering the same name again replaces
 * its mapping, so a module evaluated twice (tests, hot reload) keeps one.
 */
export function registerPlatformErrors(name: string, mapping: PlatformErrorMapping): void {
  mappings.set(name, mapping);
}

/** The answer of the first registered mapping that knows `err`, or `undefined`. */
export function mapPlatformError(err: unknown): PlatformErrorAnswer | undefined {
  for (const mapping of mappings.values()) {
    const answer = mapping(err);
    if (answer) return answer;
  }
  return undefined;
}
