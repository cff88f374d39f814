import { sql } from 'kysely';
import { databaseFault, describeFault } from '../../core/db/faults.js';
import { databaseUnavailable } from '../../core/http/error-handler.js';
import type { Services } from '../../core/services.js';
import { serverVersion } from './version.js';

/** How long the readiness probe waits for the database before it answers 503 (a probe's own timeout is ~1 s). */
export const READINESS_TIMEOUT_MS = 1_000;

/** What `GET /health/ready` answers when the database answers. */
export interface Ready {
  readonly status: 'ok';
  readonly version: string;
  readonly database: 'ok';
}

/**
 * Readiness (`GET /health/ready`): the database answers a trivial query within {@link READINESS_TIMEOUT_MS}.
 * Throws 503 `service_unavailable` with `Retry-After` otherwise (the cause goes to the log). Liveness is
 * `GET /health`, which never asks the database: a process whose database is away is alive and recovers by
 * itself, so an orchestrator should stop sending it traffic, not restart it.
 */
export async function checkReadiness(services: Services): Promise<Ready> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          Object.assign(new Error(`the database did not answer within ${READINESS_TIMEOUT_MS} ms`), {
            code: 'ETIMEDOUT',
          }),
        ),
      READINESS_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([sql`select 1`.execute(services.database.db), timeout]);
  } catch (err) {
    const fault = databaseFault(err) ?? {
      kind: 'connection' as const,
      code: 'unknown',
      message: err instanceof Error ? err.message : String(err),
    };
    throw Object.assign(databaseUnavailable(fault), { cause: describeFault(fault) });
  } finally {
    clearTimeout(timer);
  }
  return { status: 'ok', version: serverVersion(), database: 'ok' };
}
