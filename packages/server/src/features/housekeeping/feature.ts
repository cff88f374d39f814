import { systemClock } from '../../core/clock.js';
import { defineFeature } from '../../core/feature.js';
import { IDEMPOTENCY_SWEEP_KIND, idempotencySweepKind } from '../../core/idempotency/sweep.js';
import { enqueue } from '../../core/jobs/index.js';

const DAY_MS = 86_400_000;

/**
 * Background upkeep of the core's own tables: the hourly sweep of `Idempotency-Key` answers older than the
 * replay window (`XSVC_IDEMPOTENCY_RETENTION_DAYS`). Its one keyed job is added when the server is ready
 * (kept if another instance added it), and runs on the system clock; tests step it with `runDue`.
 */
export const housekeepingFeature = defineFeature({
  name: 'housekeeping',
  jobs: [IDEMPOTENCY_SWEEP_KIND],
  routes(app, services) {
    const retentionMs = services.config.idempotencyRetentionDays * DAY_MS;
    services.jobs.register(
      idempotencySweepKind(
        () => services.database.db,
        retentionMs,
        (deleted) => deleted && app.log.info({ deleted }, 'idempotency keys past the replay window swept'),
      ),
    );
    app.addHook('onReady', async () => {
      await enqueue(
        services.database.db,
        [{ kind: IDEMPOTENCY_SWEEP_KIND, key: 'all' }],
        services.clock.now(),
        'keep',
      );
      if (services.clock === systemClock) await services.jobs.start([IDEMPOTENCY_SWEEP_KIND]);
    });
  },
});
