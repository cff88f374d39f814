import { z } from 'zod';
import { limits } from '../limits.js';
import { defineOperation } from '../operation.js';
import {
  ApiCatalogSchema,
  AskAnswerSchema,
  AskFlatRequestSchema,
  AskRequestSchema,
  AuthorizationServerMetadataSchema,
  ClientRegistrationRequestSchema,
  ClientRegistrationSchema,
  HealthSchema,
  OAuthAuthorizeQuerySchema,
  OAuthRevokeRequestSchema,
  OAuthTokenRequestSchema,
  OAuthTokenSchema,
  OpenApiDocumentSchema,
  ProtectedResourceMetadataSchema,
} from '../schemas/discovery.js';

/** Every operation here is public and free. */
const open = { auth: ['none'], cost: { kind: 'free' } } as const;

const askNote =
  'Set `streaming` to get a `text/event-stream` instead of JSON. Failures do not use the API error body: ' +
  'they answer `{ _meta: { response_type: "failure", version }, error: { code, message } }` with code ' +
  `\`INVALID_QUERY\` (400), \`TOKEN_LIMIT\` (413, body over ${limits.ask.bodyMaxBytes / 1024} KiB), or ` +
  '`INTERNAL_ERROR` (502); 429 when throttled.';

export const askQuery = defineOperation({
  id: 'askQuery',
  method: 'GET',
  path: '/ask',
  tag: 'Agent Discovery',
  summary: 'Search the documentation in natural language',
  description: `NLWeb 0.55 answer with \`_meta\` and ranked \`results\`. ${askNote}`,
  sdk: ['ask', 'query'],
  ...open,
  params: null,
  query: AskFlatRequestSchema,
  body: null,
  success: [200],
  response: AskAnswerSchema,
  errors: [],
  pagination: null,
  idempotent: true,
  example: 'ask query --query "how do I page through events"',
});

export const askPost = defineOperation({
  id: 'askPost',
  method: 'POST',
  path: '/ask',
  tag: 'Agent Discovery',
  summary: 'Search the documentation with an NLWeb request body',
  description:
    'Takes a flat body (`query`, `site`, `mode`, `response_format`, `streaming`) or a structured NLWeb 0.55 ' +
    `body (\`query.text\`, \`prefer\`, \`context\`, \`meta\`), as JSON or as a form, at most ${limits.ask.bodyMaxBytes / 1024} KiB. ${askNote}`,
  sdk: ['ask', 'post'],
  ...open,
  params: null,
  query: null,
  body: AskRequestSchema,
  success: [200],
  response: AskAnswerSchema,
  errors: [],
  pagination: null,
  idempotent: false,
  example: 'ask post --query "how are webhooks signed"',
});

export const getOpenApiJson = defineOperation({
  id: 'getOpenApiJson',
  method: 'GET',
  path: '/openapi.json',
  tag: 'Agent Discovery',
  summary: 'Get the OpenAPI 3.1 description of the API',
  sdk: ['discovery', 'openapi'],
  ...open,
  params: null,
  query: null,
  body: null,
  success: [200],
  response: OpenApiDocumentSchema,
  errors: [],
  pagination: null,
  idempotent: true,
  example: 'discovery openapi',
});

export const getOpenApiYaml = defineOperation({
  id: 'getOpenApiYaml',
  method: 'GET',
  path: '/openapi.yaml',
  tag: 'Agent Discovery',
  summary: 'Get the OpenAPI 3.1 description of the API as YAML',
  sdk: ['discovery', 'openapiYaml'],
  ...open,
  params: null,
  query: null,
  body: null,
  success: [200],
  response: z.string(),
  responseKind: 'text',
  errors: [],
  pagination: null,
  idempotent: true,
  example: 'discovery openapi-yaml',
});

export const getApiCatalog = defineOperation({
  id: 'getApiCatalog',
  method: 'GET',
  path: '/.well-known/api-catalog',
  tag: 'Agent Discovery',
  summary: 'Get the API catalog (RFC 9727 linkset)',
  description:
    'An `application/linkset+json` document linking the API to its description, documentation and status.',
  sdk: ['discovery', 'apiCatalog'],
  ...open,
  params: null,
  query: null,
  body: null,
  success: [200],
  response: ApiCatalogSchema,
  errors: [],
  pagination: null,
  idempotent: true,
  example: 'discovery api-catalog',
});

export const getAuthorizationServerMetadata = defineOperation({
  id: 'getAuthorizationServerMetadata',
  method: 'GET',
  path: '/.well-known/oauth-authorization-server',
  tag: 'Agent Discovery',
  summary: 'Get the OAuth authorization server metadata',
  sdk: ['discovery', 'authorizationServer'],
  ...open,
  params: null,
  query: null,
  body: null,
  success: [200],
  response: AuthorizationServerMetadataSchema,
  errors: [],
  pagination: null,
  idempotent: true,
  example: 'discovery authorization-server',
});

export const getProtectedResourceMetadata = defineOperation({
  id: 'getProtectedResourceMetadata',
  method: 'GET',
  path: '/.well-known/oauth-protected-resource/mcp',
  tag: 'Agent Discovery',
  summary: 'Get the OAuth protected resource metadata of the MCP endpoint',
  sdk: ['discovery', 'protectedResource'],
  ...open,
  params: null,
  query: null,
  body: null,
  success: [200],
  response: ProtectedResourceMetadataSchema,
  errors: [],
  pagination: null,
  idempotent: true,
  example: 'discovery protected-resource',
});

export const getHealth = defineOperation({
  id: 'getHealth',
  method: 'GET',
  path: '/health',
  tag: 'Agent Discovery',
  summary: 'Check that the service is up',
  sdk: ['discovery', 'health'],
  ...open,
  params: null,
  query: null,
  body: null,
  success: [200],
  response: HealthSchema,
  errors: [],
  pagination: null,
  idempotent: true,
  example: 'discovery health',
});

export const oauthAuthorize = defineOperation({
  id: 'oauthAuthorize',
  method: 'GET',
  path: '/api/oauth/authorize',
  tag: 'Agent Discovery',
  summary: 'Start an OAuth 2.1 authorization (PKCE S256) in a browser',
  description:
    'Opened in the user’s browser: the user signs in and approves, then the answer redirects (302) to ' +
    '`redirect_uri` with `code`, `state` and `iss`. The code is valid 60 seconds and works once. Errors after ' +
    'the client and redirect URI are checked are sent to the redirect URI as `error` parameters.',
  sdk: ['oauth', 'authorize'],
  ...open,
  params: null,
  query: OAuthAuthorizeQuerySchema,
  body: null,
  success: [302],
  response: z.void(),
  responseKind: 'empty',
  errors: ['invalid_input'],
  pagination: null,
  idempotent: true,
  example:
    'oauth authorize --response-type code --client-id 6f1c2b9e-4d3a-4e8f-9a7b-1c2d3e4f5a6b ' +
    '--redirect-uri http://localhost:8976/callback --code-challenge E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM ' +
    '--code-challenge-method S256',
});

export const oauthToken = defineOperation({
  id: 'oauthToken',
  method: 'POST',
  path: '/api/oauth/token',
  tag: 'Agent Discovery',
  summary: 'Exchange an authorization code or a refresh token for tokens',
  description:
    'Form-encoded. `grant_type=authorization_code` needs `code`, `code_verifier`, `client_id`, `redirect_uri` ' +
    '(and `resource`); `grant_type=refresh_token` needs `refresh_token` and `client_id`. Refresh tokens ' +
    'rotate: keep the new one. Failures answer the OAuth error body (`{ error: "invalid_grant", ' +
    'error_description }`, RFC 6749), not the API error body.',
  sdk: ['oauth', 'token'],
  ...open,
  params: null,
  query: null,
  body: OAuthTokenRequestSchema,
  bodyEncoding: 'form',
  success: [200],
  response: OAuthTokenSchema,
  errors: [],
  pagination: null,
  idempotent: false,
  example:
    'oauth token --grant-type refresh_token --refresh-token rt_example --client-id 6f1c2b9e-4d3a-4e8f-9a7b-1c2d3e4f5a6b',
});

export const oauthRegister = defineOperation({
  id: 'oauthRegister',
  method: 'POST',
  path: '/api/oauth/register',
  tag: 'Agent Discovery',
  summary: 'Register an OAuth client dynamically',
  description:
    'Redirect URIs must be HTTPS (`http://localhost` and `http://127.0.0.1` are allowed for development) and ' +
    'are matched exactly. Public clients (`none`) are the default; a `client_secret_post` client gets its ' +
    '`client_secret` once. A client may instead use the URL of a client metadata document as its id.',
  sdk: ['oauth', 'register'],
  ...open,
  params: null,
  query: null,
  body: ClientRegistrationRequestSchema,
  success: [201],
  response: ClientRegistrationSchema,
  errors: ['invalid_input'],
  pagination: null,
  idempotent: false,
  example: 'oauth register --client-name "My agent" --redirect-uris http://localhost:8976/callback',
});

export const oauthRevoke = defineOperation({
  id: 'oauthRevoke',
  method: 'POST',
  path: '/api/oauth/revoke',
  tag: 'Agent Discovery',
  summary: 'Revoke an OAuth access or refresh token',
  description:
    'Form-encoded (RFC 7009). Answers 200 without a body, also for a token that is unknown or already revoked.',
  sdk: ['oauth', 'revoke'],
  ...open,
  params: null,
  query: null,
  body: OAuthRevokeRequestSchema,
  bodyEncoding: 'form',
  success: [200],
  response: z.void(),
  responseKind: 'empty',
  errors: ['invalid_input'],
  pagination: null,
  idempotent: false,
  example: 'oauth revoke --token rt_example --token-type-hint refresh_token',
});

/** The public discovery, documentation-search and OAuth endpoints (outside the reference's 127). */
export const discoveryOperations = [
  askQuery,
  askPost,
  getOpenApiJson,
  getOpenApiYaml,
  getApiCatalog,
  getAuthorizationServerMetadata,
  getProtectedResourceMetadata,
  getHealth,
  oauthAuthorize,
  oauthToken,
  oauthRegister,
  oauthRevoke,
] as const;
