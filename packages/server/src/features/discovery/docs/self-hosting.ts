import type { Guide } from './guide.js';

export const selfHosting: Guide = {
  slug: 'self-hosting',
  title: 'Self-hosting: the simulated platform, sign-in and checkouts',
  summary: 'Driving the simulated network with /sim, signing in locally, and approving credit checkouts.',
  body: `
## The simulated platform (\`XSVC_PLATFORM=simulated\`, the default)

A deterministic, seeded network kept in the server's database. The owner's API key drives it:

| request | effect |
|---|---|
| \`POST /sim/users\` | create an account (\`username\`, profile fields, \`verifiedType\`, \`protected\`) |
| \`PATCH /sim/users/{username}\` | change any profile field, rename, protect, suspend, verify, pin a tweet |
| \`POST /sim/users/{username}/following\` / \`DELETE …/following/{target}\` | follow / unfollow |
| \`POST /sim/users/{username}/likes\` | like a tweet (\`tweetId\`) |
| \`POST /sim/tweets\` | post (\`author\`, \`text\`; \`inReplyToId\`, \`quotedTweetId\`, \`retweetOfId\`, \`media\`, \`poll\`, \`lang\`) |
| \`DELETE /sim/tweets/{id}\` | delete a tweet (and its reposts) |
| \`POST /sim/reset\` | empty the network and seed it again (\`seed\`, optional \`size\`) |

Monitors see these changes on their next check, so events and webhook deliveries can be tested end to end.

## Signing in

\`POST /auth/magic-link\` writes a single-use sign-in link to the server log; \`owner@localhost\` is the owner.

## Checkouts

\`topUpCredits\` and \`subscribe\` return a local \`/checkout/{id}\` page: the owner approves it (owner session or
\`POST /checkout/{id}/approve\` with the owner's key), the credits are granted once, and
\`getCreditTopupStatus\` answers \`paid\`. No money moves.
`,
};
