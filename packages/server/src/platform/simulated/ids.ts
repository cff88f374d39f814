/**
 * The simulated platform's tweet and user ids are snowflakes (X's own layout); the generator lives in
 * `core/ids/snowflake.ts` so that `core/` never imports a platform.
 */
export {
  compareIds,
  isNumericId,
  SNOWFLAKE_EPOCH_MS,
  SnowflakeIds,
  snowflake,
  snowflakeTime,
} from '../../core/ids/snowflake.js';
