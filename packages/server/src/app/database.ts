/**
 * The complete database type. `core/db/schema.ts` declares `Database` with the core mechanisms' tables;
 * every feature's `tables.ts` and the simulated platform's add theirs by declaration merging. The app knows
 * every part, so this module loads every augmentation: the published declarations (`dist/index.d.ts`) get
 * the whole `Database` through it (see `scripts/merge-dts-augmentations.ts`).
 */
import '../features/composition/tables.js';
import '../features/draws/tables.js';
import '../features/extractions/tables.js';
import '../features/guest-wallets/tables.js';
import '../features/monitors/tables.js';
import '../features/reads/tables.js';
import '../features/support/tables.js';
import '../features/webhooks/tables.js';
import '../features/writes/tables.js';
import '../features/x-accounts/tables.js';
import '../platform/simulated/tables.js';
import '../platform/xapi/stream-tables.js';

export type { Database } from '../core/db/schema.js';
