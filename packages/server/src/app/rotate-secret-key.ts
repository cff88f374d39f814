import type { Config } from '../core/config.js';
import { ConfigError } from '../core/config.js';
import { CORE_SEALED_COLUMNS } from '../core/crypto/core-sealed-columns.js';
import { completeKeyChange, loadSecretKeys } from '../core/crypto/key-source.js';
import { type ResealReport, resealAtRest } from '../core/crypto/reseal.js';
import { type Db, openDatabase } from '../core/db/database.js';
import { migrateToLatest } from '../core/db/migrate.js';
import { serverFeatures } from './server.js';

/**
 * `xsvc-server rotate-secret-key`: what a start does to the secrets at rest, without serving: seals again
 * under `XSVC_SECRET_KEY` every value `XSVC_SECRET_KEY_PREVIOUS` sealed, then records the new key's check
 * value. For the end of a rotation across instances (what the others wrote under the old key while they
 * were restarted), and for rotating a stopped deployment. Needs both variables. Works on `database` when
 * given (tests), else opens (and closes) the configured one.
 */
export async function rotateSecretKey(config: Config, given?: Db): Promise<ResealReport> {
  if (!config.secretKey || !config.secretKeyPrevious)
    throw new ConfigError(
      'rotate-secret-key needs XSVC_SECRET_KEY (the new key) and XSVC_SECRET_KEY_PREVIOUS (the key it replaces; for a key file, its content)',
    );
  const database = given ?? (await openDatabase(config.databaseUrl));
  try {
    await migrateToLatest(database);
    const { keys } = await loadSecretKeys(config, database);
    const columns = [...CORE_SEALED_COLUMNS, ...serverFeatures().flatMap((f) => f.sealedColumns ?? [])];
    const report = await resealAtRest(database, keys, columns);
    await completeKeyChange(database, keys, Date.now());
    return report;
  } finally {
    if (!given) await database.close();
  }
}
