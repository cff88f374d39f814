import type { schemas } from '@xsvc/sdk/contract';
import type { z } from 'zod';

type AuthorizationServerMetadata = z.input<typeof schemas.AuthorizationServerMetadataSchema>;
type ProtectedResourceMetadata = z.input<typeof schemas.ProtectedResourceMetadataSchema>;

/** OAuth authorization server metadata (RFC 8414; spec 5.3.1) for an origin. */
export function authorizationServerMetadata(base: string): AuthorizationServerMetadata {
  return {
    issuer: base,
    authorization_endpoint: `${base}/api/oauth/authorize`,
    token_endpoint: `${base}/api/oauth/token`,
    registration_endpoint: `${base}/api/oauth/register`,
    revocation_endpoint: `${base}/api/oauth/revoke`,
    scopes_supported: ['mcp:tools'],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_post'],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
    agent_auth: {
      identity_types_supported: ['anonymous', 'oauth_client'],
      credential_types_supported: ['oauth_access_token'],
    },
  };
}

/** OAuth protected resource metadata of `/mcp` (RFC 9728; spec 5.3.1). */
export function protectedResourceMetadata(base: string): ProtectedResourceMetadata {
  return {
    resource: `${base}/mcp`,
    authorization_servers: [base],
    bearer_methods_supported: ['header'],
    scopes_supported: ['mcp:tools'],
    resource_name: 'Social Data and Automation Service (MCP)',
    resource_documentation: `${base}/docs/mcp-oauth.md`,
  };
}
