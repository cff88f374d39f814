import { defineFeature } from '../../core/feature.js';
import { guestWalletHandlers } from './handlers.js';
import { GUEST_WALLETS_TABLES } from './tables.js';

/** Guest wallets (spec 5.5): prepaid keys bought without an account. */
export const guestWalletsFeature = defineFeature({
  name: 'guest-wallets',
  tables: GUEST_WALLETS_TABLES,
  // A kept checkout answer holds a guest key: sealed (`sealed-answer.ts`).
  sealedColumns: [
    {
      table: 'guest_purchases',
      column: 'response',
      key: 'id',
      purpose: 'x-account-sessions',
      format: 'json-sealed',
    },
  ],
  handlers: guestWalletHandlers,
});
