import type { Guide } from './guide.js';

export const mcp: Guide = {
  slug: 'mcp-oauth',
  title: 'MCP and OAuth 2.1',
  summary: 'Connecting an agent to the remote MCP endpoint with OAuth 2.1 (PKCE S256) or an API key.',
  body: `
The remote MCP server is at \`/mcp\`. An unauthenticated call answers a \`WWW-Authenticate: Bearer\` challenge
with \`resource_metadata\` pointing at \`/.well-known/oauth-protected-resource/mcp\` and \`scope="mcp:tools"\`.

1. Discover: \`/.well-known/oauth-authorization-server\` lists the authorization, token, registration and
   revocation endpoints; only \`code\` responses, \`S256\` challenges and the \`mcp:tools\` scope.
2. Register: \`POST /api/oauth/register\` with \`client_name\` and \`redirect_uris\` (HTTPS, or
   \`http://localhost\` / \`http://127.0.0.1\`; exact match), or use the HTTPS URL of a client metadata
   document as the client id.
3. Authorize in a browser: \`GET /api/oauth/authorize\` with \`response_type=code\`, \`client_id\`,
   \`redirect_uri\`, \`code_challenge\` (base64url SHA-256 of a verifier of at least 32 random bytes),
   \`code_challenge_method=S256\` and \`resource\` (\`/mcp\` on this origin). The code lives 60 seconds, once.
4. Exchange: \`POST /api/oauth/token\` (form-encoded) with \`grant_type=authorization_code\`, \`code\`,
   \`code_verifier\`, \`client_id\`, \`redirect_uri\`, \`resource\`; refresh with \`grant_type=refresh_token\`.

An API key also works as a bearer token on \`/mcp\`.
`,
};
