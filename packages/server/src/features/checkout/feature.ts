import { defineFeature } from '../../core/feature.js';
import { registerCheckoutRoutes } from './routes.js';

/** The checkout pages: paying for top-ups, plans and guest wallets (approved by the owner when self-hosted). */
export const checkoutFeature = defineFeature({ name: 'checkout', routes: registerCheckoutRoutes });
