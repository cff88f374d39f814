import { defineFeature } from '../../core/feature.js';
import { registerPaymentNetworkRoutes } from './sim-route.js';

/** Machine payments (spec 5.6): the simulated payment network that settles them on a self-hosted server. */
export const paymentsFeature = defineFeature({ name: 'payments', routes: registerPaymentNetworkRoutes });
