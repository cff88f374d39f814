import type { Guide } from './guide.js';

export const authentication: Guide = {
  slug: 'authentication',
  title: 'Authentication',
  summary:
    'API keys, bearer tokens, the session cookie, OAuth 2.1 access tokens, guest keys and machine payments.',
  body: `
## Credentials

| credential | how it is sent | use |
|---|---|---|
| API key | header \`x-api-key: svc_<64 hex>\`, or \`Authorization: Bearer svc_…\` | most endpoints |
| session cookie | cookie \`session_token\` (dashboard sign-in) | every dual-auth endpoint; creating and listing keys |
| OAuth 2.1 access token | \`Authorization: Bearer <token>\`, scope \`mcp:tools\` | MCP and REST |
| guest key | \`Authorization: Bearer <guest key>\`, scope \`paid_reads\` | eligible read-only GET routes |
| machine payment | \`Authorization: Payment <base64url JSON>\` | a few fixed-price reads |

Send an API key or a bearer token, not both. Missing or invalid credentials answer 401 \`unauthenticated\`.

## API keys

Keys are hashed at rest, an account may hold up to 100 active keys (rotate without downtime), and a revoked key
stops working at once. The first key of an account is created with a session: \`POST /api/v1/api-keys\`.

## Signing in (self-hosted server)

\`POST /auth/magic-link\` with \`{ "email": "you@example.com" }\` writes a sign-in link to the server log (the
server sends no e-mail). Opening it sets the \`session_token\` cookie (HttpOnly, SameSite=Lax, Secure over
https), valid 30 days; the link works once, for 15 minutes. \`owner@localhost\` signs in as the server's owner.
\`POST /auth/logout\` ends the session.

## Anonymous paid reads

Without credentials, paid reads answer 401 with \`WWW-Authenticate: Bearer\` and a guest-wallet action, or
(on the fixed-price reads) 402 with a \`WWW-Authenticate: Payment\` challenge. No checkout is ever started
automatically.
`,
};
