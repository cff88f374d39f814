import { z } from 'zod';
import { limits } from '../limits.js';
import { openEnum, QueryBoolean } from '../zod-helpers.js';

// ---- documentation search (/ask, NLWeb 0.55) --------------------------------------------------------

/** Answer formats of `/ask`. */
export const ASK_RESPONSE_FORMATS = ['chatgpt_app', 'conversational_search'] as const;

/** Error codes of `/ask` (its own failure shape, not the API's error body). */
export const ASK_ERROR_CODES = ['INVALID_QUERY', 'TOKEN_LIMIT', 'RATE_LIMITED', 'INTERNAL_ERROR'] as const;

const askText = z
  .string()
  .min(limits.ask.queryMin)
  .max(limits.ask.queryMax)
  .describe(`The question, ${limits.ask.queryMin}-${limits.ask.queryMax} characters.`);
const askSite = z
  .string()
  .min(1)
  .describe("Which of the two documentation hosts to search: the server's own host or its `docs.` host.");
const askMode = z.enum(['list']).describe('Result mode; only `list`.');
const askFormat = z
  .enum(ASK_RESPONSE_FORMATS)
  .describe('`conversational_search` (default) or `chatgpt_app`.');

/** The flat `/ask` request: the GET query, or a flat POST body (JSON or form). */
export const AskFlatRequestSchema = z.object({
  query: askText,
  site: askSite.optional(),
  mode: askMode.optional(),
  response_format: askFormat.default('conversational_search'),
  streaming: QueryBoolean.default(false).describe('True answers with a `text/event-stream` instead of JSON.'),
});

/** The structured NLWeb `/ask` request body. */
export const AskStructuredRequestSchema = z.object({
  query: z.object({ text: askText, site: askSite.optional() }).describe('The question and where to search.'),
  prefer: z
    .object({
      streaming: z.boolean().optional().describe('True answers with a `text/event-stream`.'),
      response_format: askFormat.optional(),
      mode: askMode.optional(),
    })
    .optional()
    .describe('How to answer.'),
  context: z.record(z.string(), z.unknown()).optional().describe('Conversation context (NLWeb).'),
  meta: z
    .object({ version: z.string().optional().describe('NLWeb protocol version of the request.') })
    .optional()
    .describe('Protocol metadata.'),
});

/** A POST `/ask` body: flat or structured (at most 8 KiB). */
export const AskRequestSchema = z.union([AskFlatRequestSchema, AskStructuredRequestSchema]);

/** `_meta` of an `/ask` answer. */
export const AskMetaSchema = z.object({
  response_type: openEnum(['answer']).describe('`answer`.'),
  response_format: openEnum(ASK_RESPONSE_FORMATS).describe('Format of the answer.'),
  version: z.string().describe('NLWeb protocol version.'),
});

/** One `/ask` result: a Schema.org-style object (`@type`, `name`, `url`, `description`, ...). */
export const AskResultSchema = z.record(z.string(), z.unknown());

/** The answer of `/ask`. */
export const AskAnswerSchema = z.object({
  _meta: AskMetaSchema.describe('Answer metadata.'),
  results: z.array(AskResultSchema).describe('Matching documentation entries, best first.'),
});

/** The failure body of `/ask` (400 INVALID_QUERY, 413 TOKEN_LIMIT, 429, 502 INTERNAL_ERROR). */
export const AskErrorBodySchema = z.object({
  _meta: z.object({ response_type: z.literal('failure'), version: z.string() }),
  error: z.object({ code: openEnum(ASK_ERROR_CODES), message: z.string() }),
});

// ---- discovery documents -----------------------------------------------------------------------------

/** The OpenAPI 3.1 description of the service. */
export const OpenApiDocumentSchema = z.object({
  openapi: z.string().describe('OpenAPI version (3.1.x).'),
  info: z
    .object({
      title: z.string(),
      version: z.string(),
      summary: z.string().optional(),
      description: z.string().optional(),
      termsOfService: z.string().optional(),
      contact: z.record(z.string(), z.unknown()).optional(),
      license: z.record(z.string(), z.unknown()).optional(),
    })
    .describe('Title and version of the API.'),
  jsonSchemaDialect: z.string().optional(),
  servers: z.array(z.record(z.string(), z.unknown())).optional(),
  paths: z.record(z.string(), z.unknown()).describe('Operations by path.'),
  webhooks: z.record(z.string(), z.unknown()).optional(),
  components: z.record(z.string(), z.unknown()).optional(),
  security: z.array(z.record(z.string(), z.unknown())).optional(),
  tags: z.array(z.record(z.string(), z.unknown())).optional(),
  externalDocs: z.record(z.string(), z.unknown()).optional(),
});

/** A link target of a linkset (RFC 9264). */
export const LinkTargetSchema = z.object({
  href: z.string().describe('Target URL.'),
  type: z.string().optional().describe('Media type of the target.'),
  title: z.string().optional().describe('Title of the target.'),
});

/** One API of the catalog with its links (RFC 9727). */
export const ApiCatalogEntrySchema = z.object({
  anchor: z.string().describe('Base URL of the API.'),
  'service-desc': z.array(LinkTargetSchema).optional().describe('Machine-readable descriptions (OpenAPI).'),
  'service-doc': z.array(LinkTargetSchema).optional().describe('Human-readable documentation.'),
  'service-meta': z.array(LinkTargetSchema).optional().describe('Further metadata (OAuth metadata, ...).'),
  status: z.array(LinkTargetSchema).optional().describe('Health endpoints.'),
});

/** The API catalog: an RFC 9727 linkset (`application/linkset+json`). */
export const ApiCatalogSchema = z.object({
  linkset: z.array(ApiCatalogEntrySchema).min(1).describe('The APIs of the service.'),
});

/** OAuth authorization server metadata (RFC 8414, spec 5.3.1). */
export const AuthorizationServerMetadataSchema = z.object({
  issuer: z.string().describe('The service origin.'),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  registration_endpoint: z.string(),
  revocation_endpoint: z.string(),
  scopes_supported: z.array(openEnum(['mcp:tools'])),
  response_types_supported: z.array(openEnum(['code'])),
  response_modes_supported: z.array(openEnum(['query'])),
  grant_types_supported: z.array(openEnum(['authorization_code', 'refresh_token'])),
  code_challenge_methods_supported: z.array(openEnum(['S256'])),
  token_endpoint_auth_methods_supported: z.array(openEnum(['none', 'client_secret_post'])),
  authorization_response_iss_parameter_supported: z.boolean(),
  client_id_metadata_document_supported: z.boolean(),
  agent_auth: z
    .record(z.string(), z.unknown())
    .describe(
      'Agent authentication block: identity types `anonymous` and `oauth_client`, credential type ' +
        '`oauth_access_token` (field names not shown by the spec).',
    ),
});

/** OAuth protected resource metadata of `/mcp` (RFC 9728, spec 5.3.1). */
export const ProtectedResourceMetadataSchema = z.object({
  resource: z.string().describe('`{base_url}/mcp`.'),
  authorization_servers: z.array(z.string()).describe('Issuers whose tokens the resource accepts.'),
  bearer_methods_supported: z.array(openEnum(['header'])),
  scopes_supported: z.array(openEnum(['mcp:tools'])),
  resource_name: z.string().optional(),
  resource_documentation: z.string().optional(),
});

/** The health check answer. */
export const HealthSchema = z.object({
  status: openEnum(['ok']).describe('`ok` when the service answers.'),
  version: z.string().describe('Version of the running service.'),
});

// ---- OAuth 2.1 ---------------------------------------------------------------------------------------

/** A redirect URI (spec 5.3.4): HTTPS, or `http://localhost` / `http://127.0.0.1` for development. */
export const REDIRECT_URI =
  /^(?:https:\/\/[^\s#/?]+(?:[/?][^\s#]*)?|http:\/\/(?:localhost|127\.0\.0\.1)(?::\d{1,5})?(?:[/?][^\s#]*)?)$/;

/** A PKCE code verifier (RFC 7636): 43-128 unreserved characters (at least 32 random bytes). */
export const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** A PKCE S256 code challenge: base64url of a SHA-256 digest, without padding. */
export const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

const redirectUri = z
  .string()
  .regex(REDIRECT_URI, 'must be an https URL, or http://localhost or http://127.0.0.1');
const resource = z.string().min(1).describe('The protected resource, `{base_url}/mcp`; send it.');
const clientId = z.string().min(1).describe('Client id (a UUID, or the URL of a client metadata document).');

/** The query of the authorization endpoint (spec 5.3.5). */
export const OAuthAuthorizeQuerySchema = z.object({
  response_type: z.enum(['code']).describe('Always `code`.'),
  client_id: clientId,
  redirect_uri: z.string().min(1).describe('Where to send the code; must match a registered URI exactly.'),
  code_challenge: z
    .string()
    .regex(CODE_CHALLENGE, 'must be the base64url SHA-256 of the verifier (43 characters)')
    .describe('Base64url SHA-256 of the PKCE verifier.'),
  code_challenge_method: z.enum(['S256']).describe('Always `S256`.'),
  resource: resource.optional(),
  scope: z.enum(['mcp:tools']).optional().describe('Requested scope; the only one is `mcp:tools` (default).'),
  state: z.string().optional().describe('Opaque value returned with the code, against CSRF.'),
});

/** Token request exchanging an authorization code (form-encoded). */
export const AuthorizationCodeGrantSchema = z.object({
  grant_type: z.literal('authorization_code').describe('`authorization_code`.'),
  code: z.string().min(1).describe('The code from the redirect (valid 60 seconds, single use).'),
  code_verifier: z
    .string()
    .regex(CODE_VERIFIER, 'must be 43-128 unreserved characters')
    .describe('The PKCE verifier whose challenge was sent to the authorization endpoint.'),
  client_id: clientId,
  redirect_uri: z.string().min(1).describe('The redirect URI of the authorization request.'),
  resource: resource.optional(),
  client_secret: z
    .string()
    .min(1)
    .optional()
    .describe('Secret of a confidential client (`client_secret_post`).'),
});

/** Token request using a refresh token (form-encoded). */
export const RefreshTokenGrantSchema = z.object({
  grant_type: z.literal('refresh_token').describe('`refresh_token`.'),
  refresh_token: z.string().min(1).describe('The refresh token of an earlier token answer.'),
  client_id: clientId,
  resource: resource.optional(),
  scope: z.enum(['mcp:tools']).optional().describe('Scope to keep; `mcp:tools`.'),
  client_secret: z
    .string()
    .min(1)
    .optional()
    .describe('Secret of a confidential client (`client_secret_post`).'),
});

/** The body of the token endpoint, by `grant_type`. */
export const OAuthTokenRequestSchema = z.discriminatedUnion('grant_type', [
  AuthorizationCodeGrantSchema,
  RefreshTokenGrantSchema,
]);

/** The answer of the token endpoint. */
export const OAuthTokenSchema = z.object({
  access_token: z.string().describe('Bearer token for `/mcp` and the REST API.'),
  token_type: openEnum(['Bearer']).describe('`Bearer`.'),
  expires_in: z.number().int().describe('Seconds until the access token expires.'),
  refresh_token: z.string().describe('Token to get a new access token; rotated on each use.'),
  scope: z.string().describe('Granted scope (`mcp:tools`).'),
});

/** The body of dynamic client registration (RFC 7591, spec 5.3.3). */
export const ClientRegistrationRequestSchema = z.object({
  client_name: z.string().min(1).describe('Name shown to the user on the consent page.'),
  redirect_uris: z
    .array(redirectUri)
    .min(1)
    .describe('Every redirect URI the client will use; matched exactly, no wildcards.'),
  token_endpoint_auth_method: z
    .enum(['none', 'client_secret_post'])
    .default('none')
    .describe('`none` (public client, default) or `client_secret_post` (a secret is returned once).'),
  grant_types: z
    .array(z.enum(['authorization_code', 'refresh_token']))
    .optional()
    .describe('Grant types the client uses.'),
  response_types: z
    .array(z.enum(['code']))
    .optional()
    .describe('Response types the client uses (`code`).'),
});

/** A registered OAuth client. */
export const ClientRegistrationSchema = z.object({
  client_id: z.uuid().describe('The new client id.'),
  client_name: z.string(),
  redirect_uris: z.array(z.string()),
  grant_types: z.array(openEnum(['authorization_code', 'refresh_token'])),
  response_types: z.array(openEnum(['code'])),
  token_endpoint_auth_method: openEnum(['none', 'client_secret_post']),
  client_secret: z.string().optional().describe('Secret of a `client_secret_post` client, shown once.'),
  client_id_issued_at: z.number().int().optional().describe('When the client id was issued (Unix seconds).'),
  client_secret_expires_at: z
    .number()
    .int()
    .optional()
    .describe('With every `client_secret` (RFC 7591 3.2.1): `0`, the secret does not expire.'),
});

/** The body of token revocation (RFC 7009, form-encoded). */
export const OAuthRevokeRequestSchema = z.object({
  token: z.string().min(1).describe('The access or refresh token to revoke.'),
  token_type_hint: z
    .enum(['access_token', 'refresh_token'])
    .optional()
    .describe('Which kind of token it is.'),
});

export type AskFlatRequest = z.input<typeof AskFlatRequestSchema>;
export type AskStructuredRequest = z.input<typeof AskStructuredRequestSchema>;
export type AskRequest = z.input<typeof AskRequestSchema>;
export type AskMeta = z.infer<typeof AskMetaSchema>;
export type AskResult = z.infer<typeof AskResultSchema>;
export type AskAnswer = z.infer<typeof AskAnswerSchema>;
export type AskErrorBody = z.infer<typeof AskErrorBodySchema>;
export type OpenApiDocument = z.infer<typeof OpenApiDocumentSchema>;
export type LinkTarget = z.infer<typeof LinkTargetSchema>;
export type ApiCatalogEntry = z.infer<typeof ApiCatalogEntrySchema>;
export type ApiCatalog = z.infer<typeof ApiCatalogSchema>;
export type AuthorizationServerMetadata = z.infer<typeof AuthorizationServerMetadataSchema>;
export type ProtectedResourceMetadata = z.infer<typeof ProtectedResourceMetadataSchema>;
export type Health = z.infer<typeof HealthSchema>;
export type OAuthAuthorizeQuery = z.input<typeof OAuthAuthorizeQuerySchema>;
export type AuthorizationCodeGrant = z.input<typeof AuthorizationCodeGrantSchema>;
export type RefreshTokenGrant = z.input<typeof RefreshTokenGrantSchema>;
export type OAuthTokenRequest = z.input<typeof OAuthTokenRequestSchema>;
export type OAuthToken = z.infer<typeof OAuthTokenSchema>;
export type ClientRegistrationRequest = z.input<typeof ClientRegistrationRequestSchema>;
export type ClientRegistration = z.infer<typeof ClientRegistrationSchema>;
export type OAuthRevokeRequest = z.input<typeof OAuthRevokeRequestSchema>;
