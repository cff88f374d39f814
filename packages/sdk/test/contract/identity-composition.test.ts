import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { AnyOperation } from '../../src/contract/operation.js';
import { apiKeysOperations } from '../../src/contract/operations/api-keys.js';
import { compositionOperations } from '../../src/contract/operations/composition.js';
import { discoveryOperations } from '../../src/contract/operations/discovery.js';
import { guestWalletsOperations } from '../../src/contract/operations/guest-wallets.js';
import { subscribeOperations } from '../../src/contract/operations/subscribe.js';
import { supportOperations } from '../../src/contract/operations/support.js';
import { ComposeRequestSchema } from '../../src/contract/schemas/composition.js';
import { AskErrorBodySchema, OAuthTokenRequestSchema } from '../../src/contract/schemas/discovery.js';
import { GUEST_IDEMPOTENCY_KEY } from '../../src/contract/schemas/guest-wallets.js';
import { SUPPORT_IDEMPOTENCY_KEY } from '../../src/contract/schemas/support.js';
import { strictify } from '../../src/contract/zod-helpers.js';
import { exampleFor } from '../../src/testing/examples.js';

const all: readonly AnyOperation[] = [
  ...apiKeysOperations,
  ...subscribeOperations,
  ...compositionOperations,
  ...supportOperations,
  ...guestWalletsOperations,
  ...discoveryOperations,
];
const byId = Object.fromEntries(all.map((o) => [o.id, o])) as Record<string, AnyOperation>;

interface Req {
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

/** Parses what the server would validate; an absent part is parsed as `{}` (params, query) or skipped (body). */
function parseRequest(op: AnyOperation, req: Req): { success: boolean; error?: z.ZodError } {
  const parts: [z.ZodType | null, unknown][] = [
    [op.params, req.params ?? {}],
    [op.query, req.query ?? {}],
    [op.body, req.body],
  ];
  for (const [schema, value] of parts) {
    if (!schema) continue;
    const r = schema.safeParse(value);
    if (!r.success) return { success: false, error: r.error };
  }
  return { success: true };
}

const TS = '2026-03-01T12:00:00.000Z';
const LATER = '2026-03-02T08:30:00.000Z';
const FULL_KEY = `svc_${'3fa9c2d17b5e4f60'.repeat(4)}`;
const CLIENT_ID = '6f1c2b9e-4d3a-4e8f-9a7b-1c2d3e4f5a6b';
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const IDEMPOTENCY_UUID = '0b6f3c1e-2a4d-4f8b-9c7e-5d1a2b3c4d5e';

const apiKey = {
  id: '1900000000000000001',
  name: 'production',
  prefix: 'svc_3fa9c2d1',
  createdAt: TS,
  lastUsedAt: LATER,
  isActive: true,
};
const draft = {
  id: '1900000000000000400',
  text: 'Small releases beat big launches.',
  topic: 'shipping',
  goal: 'engagement',
  createdAt: TS,
  updatedAt: LATER,
};
const styleTweet = {
  id: '1897000000000000000',
  text: 'ship small, ship often',
  authorUsername: 'jack',
  createdAt: TS,
};
const style = {
  xUsername: 'jack',
  tweetCount: 2,
  isOwnAccount: false,
  fetchedAt: TS,
  tweets: [
    styleTweet,
    {
      id: '1897000000000000001',
      text: 'a picture',
      authorUsername: 'jack',
      createdAt: TS,
      media: [{ type: 'photo', mediaUrl: 'https://pbs.example.com/media/a.jpg' }],
    },
  ],
};
const ticketSummary = {
  publicId: 'TCK-7F3K2',
  subject: 'Webhook deliveries failing',
  status: 'in_progress',
  messageCount: 3,
  createdAt: TS,
  updatedAt: LATER,
};
const checkout = {
  wallet_id: 'gw_7hK2mQ9x',
  purchase_id: 'gp_4Tz8Lw1c',
  status: 'pending',
  amount: { amount_minor: 1000, currency: 'usd' },
  credits: '10000',
  checkout_url: 'https://checkout.example.com/c/pay/cs_live_a1b2',
  status_url: 'https://api.example.com/api/v1/guest-wallets/status',
  expires_at: '2026-03-01T12:30:00.000Z',
  poll_after_seconds: 5,
  requires_user_interaction: true,
  account_required: false,
  instructions: 'Ask the user to open checkout_url and pay, then poll status_url with the guest key.',
};
const askAnswer = {
  _meta: { response_type: 'answer', response_format: 'conversational_search', version: '0.55' },
  results: [
    {
      '@type': 'TechArticle',
      name: 'Pagination',
      url: 'https://docs.example.com/guides/pagination',
      description: 'Page through events with after and hasMore.',
      score: 0.92,
    },
  ],
};

interface Case {
  valid: Req;
  /** A request the server must refuse; absent for operations that take no input. */
  invalid?: Req;
  response: unknown;
}

const cases: Record<string, Case> = {
  // ---- API keys
  listApiKeys: {
    valid: {},
    response: {
      keys: [
        apiKey,
        { ...apiKey, id: '1900000000000000002', name: 'old', isActive: false, revokedAt: LATER },
      ],
    },
  },
  createApiKey: {
    valid: { body: { name: 'production' } },
    invalid: { body: { name: 42 } },
    response: {
      id: '1900000000000000003',
      name: 'production',
      prefix: 'svc_3fa9c2d1',
      createdAt: TS,
      fullKey: FULL_KEY,
    },
  },
  revokeApiKey: {
    valid: { params: { id: '1900000000000000002' } },
    invalid: { params: {} },
    response: { success: true },
  },

  // ---- Subscribe
  subscribe: {
    valid: { body: { tier: 'pro' } },
    invalid: { body: { tier: 'enterprise' } },
    response: {
      url: 'https://checkout.example.com/c/pay/cs_live_sub',
      status: 'checkout_created',
      message: 'Open the URL to finish subscribing.',
    },
  },
  getCredits: {
    valid: {},
    response: {
      balance: '9007199254740993',
      lifetime_purchased: '12000',
      lifetime_used: '2000',
      auto_topup_enabled: true,
      auto_topup_amount_dollars: 25,
      auto_topup_threshold: '500',
    },
  },
  updateAutoTopup: {
    valid: {
      body: { auto_topup_enabled: true, auto_topup_threshold: '1000', auto_topup_amount_dollars: 10 },
    },
    invalid: { body: {} },
    response: {
      balance: '900',
      lifetime_purchased: '12000',
      lifetime_used: '2000',
      auto_topup_enabled: true,
      auto_topup_amount_dollars: 10,
      auto_topup_threshold: '1000',
    },
  },
  topUpCredits: {
    valid: { body: { dollars: 25, locale: 'en' } },
    invalid: { body: { dollars: 5 } },
    response: {
      url: 'https://app.example.com/api/v1/credits/topup/redirect?session_id=cs_live_top',
      redirect_url: 'https://app.example.com/api/v1/credits/topup/redirect?session_id=cs_live_top',
    },
  },
  redirectTopupCheckout: {
    valid: { query: { session_id: 'cs_live_top' } },
    invalid: { query: { session_id: '' } },
    response: undefined,
  },
  getCreditTopupStatus: {
    valid: { query: { session_id: 'cs_live_top' } },
    invalid: { query: {} },
    response: { status: 'paid', amount_dollars: 25, credits: '2500' },
  },
  quickTopUpCredits: {
    valid: { body: { dollars: 50 } },
    invalid: { body: { dollars: 501 } },
    response: { outcome: 'requires_action', clientSecret: 'pi_3Ab_secret_9Z' },
  },

  // ---- Composition
  compose: {
    valid: { body: { step: 'compose', topic: 'shipping small releases', goal: 'engagement' } },
    invalid: { body: { step: 'compose', goal: 'engagement' } },
    response: {
      contentRules: [{ rule: 'Lead with the outcome in the first line.' }],
      scorerWeights: [{ context: 'home timeline: raises reach', signal: 'reply', weight: null }],
      followUpQuestions: ['Who is the post for?', 'What should readers do next?'],
      engagementMultipliers: [{ action: 'reply', multiplier: 'Production weight not published by X' }],
      engagementVelocity: 'Replies in the first 30 minutes weigh the most.',
      intentUrl: 'https://x.com/intent/post',
      nextStep: 'Answer the questions, then call step refine.',
      topPenalties: ['External links in the main post'],
      source: 'published ranking code',
      radarRecommendations: [
        {
          source: 'hacker_news',
          endpoint: '/api/v1/radar?source=hacker_news',
          guidance: 'Release trains are on the front page.',
          useFor: 'tech and startup audiences',
        },
      ],
      savedStyles: [{ username: 'jack', tweetCount: 20 }],
      styleNote: 'Short sentences, lowercase.',
      styleTweets: ['ship small, ship often'],
    },
  },
  listDrafts: {
    valid: { query: { limit: '20', afterCursor: 'eyJpZCI6NDAwfQ' } },
    invalid: { query: { limit: '101' } },
    response: {
      drafts: [draft, { id: '1900000000000000401', text: 'WIP', createdAt: TS, updatedAt: TS }],
      hasMore: true,
      nextCursor: 'eyJpZCI6NDAxfQ',
    },
  },
  createDraft: {
    valid: { body: { text: 'Small releases beat big launches.', topic: 'shipping', goal: 'engagement' } },
    invalid: { body: { text: 'x', goal: 'virality' } },
    response: draft,
  },
  getDraft: { valid: { params: { id: '1900000000000000400' } }, invalid: { params: {} }, response: draft },
  deleteDraft: {
    valid: { params: { id: '1900000000000000400' } },
    invalid: { params: { id: '' } },
    response: undefined,
  },
  listStyles: {
    valid: {},
    response: { styles: [{ xUsername: 'jack', tweetCount: 20, isOwnAccount: true, fetchedAt: TS }] },
  },
  analyzeStyle: {
    valid: { body: { username: 'jack' } },
    invalid: { body: { username: 'this_name_is_too_long' } },
    response: style,
  },
  compareStyles: {
    valid: { query: { username1: 'jack', username2: '@biz' } },
    invalid: { query: { username1: 'jack' } },
    response: { style1: style, style2: { ...style, xUsername: 'biz', isOwnAccount: true } },
  },
  getStyle: { valid: { params: { id: 'jack' } }, invalid: { params: {} }, response: style },
  saveStyle: {
    valid: { params: { id: 'my_voice' }, body: { label: 'My voice', tweets: [{ text: 'Ship it.' }] } },
    invalid: { params: { id: 'my_voice' }, body: { label: 'My voice', tweets: [] } },
    response: { ...style, xUsername: 'my_voice', isOwnAccount: true },
  },
  deleteStyle: { valid: { params: { id: 'jack' } }, invalid: { params: { id: '' } }, response: undefined },
  getStylePerformance: {
    valid: { params: { id: 'jack' } },
    invalid: { params: {} },
    response: {
      xUsername: 'jack',
      tweetCount: 1,
      tweets: [{ ...styleTweet, likeCount: 120, retweetCount: 14, replyCount: 9, viewCount: 20_400 }],
    },
  },
  getRadar: {
    valid: { query: { source: 'hacker_news', hours: '24', category: 'tech', after: 'abc', limit: '50' } },
    invalid: { query: { hours: '73' } },
    response: {
      items: [
        {
          id: 'hn-41234567',
          title: 'Show HN: a tiny job queue',
          source: 'hacker_news',
          sourceId: '41234567',
          url: 'https://news.ycombinator.com/item?id=41234567',
          category: 'dev',
          language: 'en',
          region: 'global',
          score: 812,
          publishedAt: TS,
          createdAt: TS,
          metadata: { points: 812, numberComments: 140 },
        },
        {
          id: 'tm-acme',
          title: 'Acme Analytics',
          source: 'trustmrr',
          sourceId: 'acme',
          category: 'business',
          language: 'und',
          region: 'global',
          score: 64,
          publishedAt: TS,
          createdAt: LATER,
          metadata: { mrr: 12000, growthPercent: 8.5, onSale: true, askingPrice: 400000 },
        },
      ],
      hasMore: true,
      nextCursor: 'cmFkYXI6Mg',
    },
  },

  // ---- Support
  downloadSupportAttachment: {
    valid: { params: { id: 'att_1900000000000000500' } },
    invalid: { params: {} },
    response: '\x89PNG\r\n',
  },
  createTicket: {
    valid: { body: { subject: 'Webhook deliveries failing', body: 'Since 12:00 UTC every delivery fails.' } },
    invalid: { body: { subject: '   ', body: 'blank subject' } },
    response: { publicId: 'TCK-7F3K2', attachments: [] },
  },
  listTickets: {
    valid: {},
    response: {
      tickets: [ticketSummary, { ...ticketSummary, publicId: 'TCK-1A2B3', status: 'closed', updatedAt: TS }],
    },
  },
  getTicket: {
    valid: { params: { id: 'TCK-7F3K2' } },
    invalid: { params: {} },
    response: {
      publicId: 'TCK-7F3K2',
      subject: 'Webhook deliveries failing',
      status: 'open',
      createdAt: TS,
      updatedAt: LATER,
      messages: [
        { body: 'Since 12:00 UTC every delivery fails.', sender: 'user', createdAt: TS, attachments: [] },
        {
          body: 'Here is a screenshot.',
          sender: 'user',
          createdAt: LATER,
          attachments: [
            {
              publicId: 'att_1',
              filename: 'shot.png',
              contentType: 'image/png',
              kind: 'image',
              sizeBytes: 2048,
              status: 'ready',
              url: 'https://svc.example/api/v1/support/attachments/att_1',
            },
          ],
        },
      ],
    },
  },
  updateTicketStatus: {
    valid: { params: { id: 'TCK-7F3K2' }, body: { status: 'resolved' } },
    invalid: { params: { id: 'TCK-7F3K2' }, body: { status: 'in_progress' } },
    response: { publicId: 'TCK-7F3K2', status: 'resolved' },
  },
  addTicketMessage: {
    valid: { params: { id: 'TCK-7F3K2' }, body: { body: 'It works again, thanks.' } },
    invalid: { params: { id: 'TCK-7F3K2' }, body: { body: 'x'.repeat(10_001) } },
    response: { publicId: 'TCK-7F3K2', attachments: [{ publicId: 'att_1', status: 'ready' }] },
  },

  // ---- Guest wallets
  createGuestWallet: {
    valid: { body: { amount_minor: 1000, currency: 'usd' } },
    invalid: { body: { amount_minor: 999, currency: 'usd' } },
    response: {
      ...checkout,
      api_key: 'gk_live_Jx8v2N5q',
      credential_notice:
        'Store api_key and the Idempotency-Key securely before sharing checkout_url. No email recovery is available.',
      authorization: { header: 'Authorization', scheme: 'Bearer' },
    },
  },
  topUpGuestWallet: {
    valid: { body: { amount_minor: 25_000, currency: 'USD' } },
    invalid: { body: { amount_minor: 25_001, currency: 'usd' } },
    response: { ...checkout, purchase_id: 'gp_9Qw2Er5t' },
  },
  getGuestWalletStatus: {
    valid: {},
    response: {
      wallet_id: 'gw_7hK2mQ9x',
      status: 'active',
      usable: true,
      balance: '10000',
      scope: 'paid_reads',
      latest_purchase: {
        purchase_id: 'gp_4Tz8Lw1c',
        status: 'paid',
        amount: { amount_minor: 1000, currency: 'usd' },
        credits: '10000',
        checkout_url: null,
        expires_at: '2026-04-29T10:30:00.000Z',
      },
      poll_after_seconds: null,
      top_up: null,
    },
  },

  // ---- Discovery
  askQuery: {
    valid: { query: { query: 'how do I page through events', streaming: 'false', mode: 'list' } },
    invalid: { query: { query: 'x'.repeat(501) } },
    response: askAnswer,
  },
  askPost: {
    valid: {
      body: { query: { text: 'how are webhooks signed' }, prefer: { response_format: 'chatgpt_app' } },
    },
    invalid: { body: { query: '' } },
    response: { ...askAnswer, _meta: { ...askAnswer._meta, response_format: 'chatgpt_app' } },
  },
  getOpenApiJson: {
    valid: {},
    response: {
      openapi: '3.1.0',
      info: { title: 'Social Data and Automation Service', version: '1.0.0' },
      servers: [{ url: 'https://api.example.com/api/v1' }],
      paths: { '/account': { get: { operationId: 'getAccount' } } },
      components: { schemas: {} },
    },
  },
  getOpenApiYaml: {
    valid: {},
    response: 'openapi: 3.1.0\ninfo:\n  title: Social Data and Automation Service\n',
  },
  getApiCatalog: {
    valid: {},
    response: {
      linkset: [
        {
          anchor: 'https://api.example.com/api/v1',
          'service-desc': [
            { href: 'https://api.example.com/openapi.json', type: 'application/openapi+json' },
          ],
          'service-doc': [{ href: 'https://docs.example.com', type: 'text/html' }],
          status: [{ href: 'https://api.example.com/health', type: 'application/json' }],
        },
      ],
    },
  },
  getAuthorizationServerMetadata: {
    valid: {},
    response: {
      issuer: 'https://api.example.com',
      authorization_endpoint: 'https://api.example.com/api/oauth/authorize',
      token_endpoint: 'https://api.example.com/api/oauth/token',
      registration_endpoint: 'https://api.example.com/api/oauth/register',
      revocation_endpoint: 'https://api.example.com/api/oauth/revoke',
      scopes_supported: ['mcp:tools'],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_post'],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
      agent_auth: { identity_types: ['anonymous', 'oauth_client'], credential_types: ['oauth_access_token'] },
    },
  },
  getProtectedResourceMetadata: {
    valid: {},
    response: {
      resource: 'https://api.example.com/mcp',
      authorization_servers: ['https://api.example.com'],
      bearer_methods_supported: ['header'],
      scopes_supported: ['mcp:tools'],
    },
  },
  getHealth: { valid: {}, response: { status: 'ok', version: '1.4.2' } },
  oauthAuthorize: {
    valid: {
      query: {
        response_type: 'code',
        client_id: CLIENT_ID,
        redirect_uri: 'http://localhost:8976/callback',
        code_challenge: CHALLENGE,
        code_challenge_method: 'S256',
        resource: 'https://api.example.com/mcp',
        scope: 'mcp:tools',
        state: 'af0ifjsldkj',
      },
    },
    invalid: {
      query: {
        response_type: 'code',
        client_id: CLIENT_ID,
        redirect_uri: 'http://localhost:8976/callback',
        code_challenge: CHALLENGE,
        code_challenge_method: 'plain',
      },
    },
    response: undefined,
  },
  oauthToken: {
    valid: {
      body: {
        grant_type: 'authorization_code',
        code: 'c0de',
        code_verifier: VERIFIER,
        client_id: CLIENT_ID,
        redirect_uri: 'http://localhost:8976/callback',
        resource: 'https://api.example.com/mcp',
      },
    },
    invalid: { body: { grant_type: 'password', username: 'a', password: 'b' } },
    response: {
      access_token: 'at_Zx81k',
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: 'rt_Qp52m',
      scope: 'mcp:tools',
    },
  },
  oauthRegister: {
    valid: {
      body: {
        client_name: 'My agent',
        redirect_uris: ['http://127.0.0.1:8976/callback', 'https://agent.example.com/cb'],
      },
    },
    invalid: { body: { client_name: 'My agent', redirect_uris: ['http://agent.example.com/cb'] } },
    response: {
      client_id: CLIENT_ID,
      client_name: 'My agent',
      redirect_uris: ['http://127.0.0.1:8976/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
  },
  oauthRevoke: {
    valid: { body: { token: 'rt_Qp52m', token_type_hint: 'refresh_token' } },
    invalid: { body: { token_type_hint: 'refresh_token' } },
    response: undefined,
  },
};

describe('identity, billing, composition, support and discovery operations', () => {
  it('has a case for every operation and nothing else', () => {
    expect(Object.keys(cases).sort()).toEqual(all.map((o) => o.id).sort());
  });

  it('uses unique ids, method+path pairs and sdk paths', () => {
    const uniq = (xs: string[]) => expect(new Set(xs).size).toBe(xs.length);
    uniq(all.map((o) => o.id));
    uniq(all.map((o) => `${o.method} ${o.path}`));
    uniq(all.map((o) => o.sdk.join('.')));
  });

  for (const [id, c] of Object.entries(cases)) {
    describe(id, () => {
      const op = byId[id]!;

      it('accepts a valid request', () => {
        const r = parseRequest(op, c.valid);
        expect(r.error?.issues ?? []).toEqual([]);
      });

      const invalid = c.invalid;
      if (invalid) {
        it('refuses an invalid request', () => {
          expect(parseRequest(op, invalid).success).toBe(false);
        });
      } else {
        it('takes no input', () => {
          expect([op.params, op.query, op.body]).toEqual([null, null, null]);
        });
      }

      it('emits a response that passes the strict schema', () => {
        const r = strictify(op.response).safeParse(c.response);
        expect(r.error?.issues ?? []).toEqual([]);
      });

      it('has a generated mock answer that passes the strict schema', () => {
        const r = strictify(op.response).safeParse(exampleFor(op.response));
        expect(r.error?.issues ?? []).toEqual([]);
      });
    });
  }

  it('refuses unknown response fields under strictify', () => {
    const r = strictify(byId.listApiKeys!.response).safeParse({ keys: [{ ...apiKey, secret: FULL_KEY }] });
    expect(r.success).toBe(false);
  });

  it('refuses a full key that is not svc_ + 64 hex', () => {
    const created = cases.createApiKey!.response as Record<string, unknown>;
    const r = strictify(byId.createApiKey!.response).safeParse({ ...created, fullKey: 'svc_123' });
    expect(r.success).toBe(false);
  });

  it('keeps the public endpoints public and free', () => {
    for (const op of discoveryOperations) {
      expect(op.auth, op.id).toEqual(['none']);
      expect(op.cost, op.id).toEqual({ kind: 'free' });
    }
    expect(byId.createGuestWallet!.auth).toEqual(['none']);
  });

  it('marks the operations whose Idempotency-Key the SDK must send', () => {
    for (const id of ['createTicket', 'addTicketMessage', 'createGuestWallet', 'topUpGuestWallet']) {
      expect(byId[id]!.description, id).toMatch(/Idempotency-Key/);
    }
    for (const op of all.filter(
      (o) => !['createTicket', 'addTicketMessage', 'createGuestWallet', 'topUpGuestWallet'].includes(o.id),
    )) {
      expect(op.description ?? '', op.id).not.toMatch(/idempotency/i);
    }
    expect(SUPPORT_IDEMPOTENCY_KEY.test(IDEMPOTENCY_UUID)).toBe(true);
    expect(GUEST_IDEMPOTENCY_KEY.test(IDEMPOTENCY_UUID)).toBe(true);
    expect(GUEST_IDEMPOTENCY_KEY.test('not-a-uuid-at-all-but-36-characters!')).toBe(false);
  });
});

describe('compose body', () => {
  const ok = (body: unknown) => ComposeRequestSchema.safeParse(body).success;

  it('compose needs a topic', () => {
    expect(ok({ step: 'compose', topic: 'releases' })).toBe(true);
    expect(ok({ step: 'compose' })).toBe(false);
    expect(ok({ step: 'compose', topic: '' })).toBe(false);
  });

  it('refine needs goal, tone and topic', () => {
    const full = { step: 'refine', topic: 'releases', goal: 'authority', tone: 'technical' };
    expect(ok(full)).toBe(true);
    expect(ok({ ...full, mediaType: 'video', callToAction: 'Reply with yours' })).toBe(true);
    for (const missing of ['goal', 'tone', 'topic'] as const) {
      const { [missing]: _, ...rest } = full;
      expect(ok(rest), missing).toBe(false);
    }
    expect(ok({ ...full, goal: 'virality' })).toBe(false);
  });

  it('score needs a draft, and defaults hasLink to false', () => {
    expect(ok({ step: 'score' })).toBe(false);
    const r = ComposeRequestSchema.parse({ step: 'score', draft: 'Ship small.' });
    expect(r).toEqual({ step: 'score', draft: 'Ship small.', hasLink: false });
  });

  it('refuses an unknown step', () => {
    expect(ok({ step: 'publish', topic: 'x' })).toBe(false);
  });

  it('answers each step with its own result shape', () => {
    const response = strictify(byId.compose!.response);
    expect(response.safeParse(cases.compose!.response).success).toBe(true);
    const refine = {
      compositionGuidance: ['Open with the result.'],
      examplePatterns: [{ pattern: 'Before / after', description: 'Contrast makes the gain visible.' }],
      intentUrl: 'https://x.com/intent/post',
      nextStep: 'Write the draft, then call step score.',
    };
    expect(response.safeParse(refine).error?.issues ?? []).toEqual([]);
    const score = {
      totalChecks: 9,
      passedCount: 8,
      passed: false,
      topSuggestion: 'Move the link to a reply.',
      checklist: [
        { factor: 'hook', passed: true },
        { factor: 'link in main post', passed: false, suggestion: 'Move the link to a reply.' },
      ],
      nextStep: 'Fix the failed check and score again.',
    };
    expect(response.safeParse(score).error?.issues ?? []).toEqual([]);
    expect(response.safeParse({ ...score, passedCount: 10 }).success).toBe(false);
  });
});

describe('OAuth and ask details', () => {
  it('token requests are checked per grant type', () => {
    expect(
      OAuthTokenRequestSchema.safeParse({
        grant_type: 'refresh_token',
        refresh_token: 'rt',
        client_id: CLIENT_ID,
      }).success,
    ).toBe(true);
    expect(
      OAuthTokenRequestSchema.safeParse({ grant_type: 'refresh_token', client_id: CLIENT_ID }).success,
    ).toBe(false);
    expect(
      OAuthTokenRequestSchema.safeParse({
        grant_type: 'authorization_code',
        code: 'c',
        code_verifier: 'too-short',
        client_id: CLIENT_ID,
        redirect_uri: 'http://localhost/cb',
      }).success,
    ).toBe(false);
  });

  it('GET /ask defaults the format and parses streaming as a boolean', () => {
    const q = byId.askQuery!.query!.parse({ query: 'webhooks', streaming: 'true' });
    expect(q).toMatchObject({ query: 'webhooks', streaming: true, response_format: 'conversational_search' });
  });

  it('POST /ask accepts a flat body too', () => {
    expect(byId.askPost!.body!.safeParse({ query: 'webhooks', streaming: true }).success).toBe(true);
  });

  it('describes the /ask failure shape', () => {
    const failure = {
      _meta: { response_type: 'failure', version: '0.55' },
      error: { code: 'INVALID_QUERY', message: 'query must be 1-500 characters' },
    };
    expect(strictify(AskErrorBodySchema).safeParse(failure).success).toBe(true);
  });
});
