import { defineFeature } from '../../core/feature.js';
import { accountHandlers } from './handlers.js';

/** The account operations (spec 4.1): the caller's account, its keys and plan. */
export const accountFeature = defineFeature({ name: 'account', handlers: accountHandlers });
