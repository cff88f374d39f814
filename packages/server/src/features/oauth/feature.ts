import { defineFeature } from '../../core/feature.js';
import { oauthHandlers, oauthRejection } from './handlers.js';
import { registerOAuthRoutes } from './routes.js';

/** OAuth 2.1 for the remote MCP endpoint (spec 5.3): registration, authorization, tokens, metadata. */
export const oauthFeature = defineFeature({
  name: 'oauth',
  handlers: oauthHandlers,
  routes: registerOAuthRoutes,
  // The token, revocation and registration endpoints answer errors in RFC 6749 / RFC 7591's shape.
  errorShapers: [oauthRejection],
});
