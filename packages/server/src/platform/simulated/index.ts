/**
 * The simulated platform: a deterministic, seeded social network kept in the server's own database, the
 * reads of the `Platform` interface over it, and the control mutations behind `/sim/*`.
 */

export type { CreateTweetInput, CreateUserInput, UpdateUserPatch, VerifiedType } from './control.js';
export { SimulatedControl } from './control.js';
export type { Keyset } from './cursor.js';
export { decodeCursor, decodeOffsetCursor, encodeCursor, encodeOffsetCursor } from './cursor.js';
export type { SimErrorCode } from './errors.js';
export {
  InvalidCursorError,
  isSimulatedPlatformError,
  SIM_ERROR_CODES,
  SimulatedPlatformError,
} from './errors.js';
export { compareIds, isNumericId, snowflake, snowflakeTime } from './ids.js';
export type { SimCredentialsInput, SimInboxMessage } from './logins.js';
export { SIM_DEV_PASSWORD, SIM_EMAIL_CODE_TTL_MS, SimulatedLogins } from './logins.js';
export { parseJobRef, parseTweetRef, parseUserRef } from './refs.js';
export { FIXED_ACCOUNTS } from './seed/fixed-accounts.js';
export type { SeedOptions } from './seed/generate.js';
export { generateNetwork } from './seed/generate.js';
export type { SeedSize, SizeProfile } from './seed/model.js';
export { SIZE_PROFILES } from './seed/model.js';
export { TREND_WOEIDS } from './seed/trends.js';
export type { SeededWith, SeedPhase, SeedProgress, SeedProgressListener, SeedReport } from './seed.js';
export { clearNetwork, readSeededWith, SEEDED_WITH_KEY, seedNetwork } from './seed.js';
export type { SimulatedPlatformOptions } from './simulated-platform.js';
export { SimulatedPlatform } from './simulated-platform.js';
export type { BlankSimUser } from './stored.js';
export { blankSimUserRow } from './stored.js';
export { SIM_PLATFORM_TABLES } from './tables.js';
