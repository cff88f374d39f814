import type { RouteRegistrar } from '../../core/feature.js';
import type { HandlerMap } from '../../core/http/handler.js';
import { composeHandlers } from './compose/handler.js';
import { draftHandlers } from './drafts/handlers.js';
import { radarHandlers } from './radar/handlers.js';
import { seedRadar } from './radar/seed.js';
import { styleHandlers } from './styles/handlers.js';

/** The Composition operations (spec 4.9): compose, drafts, cached styles, the radar. */
export const compositionHandlers: HandlerMap = {
  ...composeHandlers,
  ...draftHandlers,
  ...styleHandlers,
  ...radarHandlers,
};

/**
 * Seeds the radar feed on start, once per database, from the simulated platform's seed size and seed (the
 * radar is the service's own curated data, so it is seeded on either platform).
 */
export const registerComposition: RouteRegistrar = async (_app, services) => {
  await seedRadar(services.database.db, {
    size: services.config.seedSize,
    seed: services.config.seed,
    now: services.clock.now(),
  });
};
