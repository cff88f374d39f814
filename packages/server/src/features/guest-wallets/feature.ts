import { defineFeature } from '../../core/feature.js';
import { guestWalletHandlers } from './handlers.js';

/** Guest wallets (spec 5.5): prepaid keys bought without an account. */
export const guestWalletsFeature = defineFeature({ name: 'guest-wallets', handlers: guestWalletHandlers });
