/**
 * Draw exports in the 7 formats, each parsed back, and the final deduction of a draw (spec 4.7): when it
 * fails, the answer is 402 `insufficient_credits` and no draw is stored. Both engines.
 */
import { EXPORT_FORMATS } from '@xsvc/sdk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlatformUnavailableError } from '../../src/core/platform/platform.js';
import { parseCsv, readPdf, readXlsx } from '../extractions/files.js';
import { type FeatureServer, setBalance, startServer } from '../extractions/helpers.js';
import { ENGINES } from '../helpers/server.js';
import { buildGiveaway, type Giveaway } from './conversation.js';

describe.each(ENGINES)('draw exports and the final deduction (%s)', (engine) => {
  let t: FeatureServer;
  let g: Giveaway;
  /** While set, every read of replies spends the whole balance elsewhere (a concurrent spend). */
  let drainDuringRead = false;
  /** While set, tweet lookups fail as when the platform is down. */
  let platformDown = false;
  beforeAll(async () => {
    t = await startServer(engine, {
      platform: (real, self) => ({
        getTweet: async (id) => {
          if (platformDown) throw new PlatformUnavailableError('x_api_unavailable', 'the platform is down');
          return real.getTweet(id);
        },
        replies: async (tweetId, filters, page) => {
          const result = await real.replies(tweetId, filters, page);
          if (drainDuringRead) await setBalance(self(), 0n);
          return result;
        },
      }),
    });
    g = await buildGiveaway(t, 'ex');
  });
  afterAll(async () => t?.close());

  const download = (url: string) =>
    t.server.app.inject({ method: 'GET', url, headers: { 'x-api-key': t.key } });

  it('exports the winners and the entries in every format, each parsed back', async () => {
    const draw = await t.request('POST', '/api/v1/draws', {
      body: { tweetUrl: g.tweetUrl, winnerCount: 1, backupCount: 1, uniqueAuthorsOnly: true, ...g.filters },
    });
    const id = draw.body.id as string;
    const winners = draw.body.winners.map((w: { authorUsername: string }) => w.authorUsername);
    for (const format of EXPORT_FORMATS) {
      for (const type of ['winners', 'entries']) {
        const r = await download(`/api/v1/draws/${id}/export?format=${format}&type=${type}`);
        expect(r.statusCode, `${format} ${type}`).toBe(200);
        expect(r.headers['content-disposition']).toContain(`draw-${id}-${type}.`);
      }
    }
    const csv = parseCsv((await download(`/api/v1/draws/${id}/export?format=csv`)).body);
    expect(csv[0]).toEqual(['position', 'isBackup', 'authorUsername', 'tweetId', 'text', 'url']);
    expect(csv.slice(1).map((r) => r[2])).toEqual(winners);
    expect(csv.slice(1).map((r) => r[1])).toEqual(['false', 'true']);
    const entries = parseCsv((await download(`/api/v1/draws/${id}/export?format=csv&type=entries`)).body);
    expect(entries).toHaveLength(1 + g.counts.replies);
    const sheet = readXlsx(
      (await download(`/api/v1/draws/${id}/export?format=xlsx&type=entries`)).rawPayload,
    );
    expect(sheet).toHaveLength(1 + g.counts.replies);
    expect(sheet[0]?.[1]).toBe('authorUsername');
    const pdf = readPdf((await download(`/api/v1/draws/${id}/export?format=pdf`)).rawPayload);
    expect(pdf.pages).toBe(1);
    for (const w of winners) expect(pdf.text).toContain(w);
    expect(pdf.text).toContain(g.tweetUrl);
    const md = (await download(`/api/v1/draws/${id}/export?format=md`)).body;
    expect(md).toContain('| Position | Backup | Author | Reply id | Reply | Link |');
    expect(md.trim().split('\n')).toHaveLength(4 + 2);
    const doc = (await download(`/api/v1/draws/${id}/export?format=md-document&type=entries`)).body;
    expect(doc).toContain('- **Excluded because:** missing_hashtag');
    const txt = (await download(`/api/v1/draws/${id}/export?format=txt`)).body;
    expect(txt).toContain(`Author: ${winners[0]}`);
    const json = JSON.parse((await download(`/api/v1/draws/${id}/export?format=json`)).body);
    expect(json.map((w: { authorUsername: string }) => w.authorUsername)).toEqual(winners);
  });

  it('a platform that is down answers x_api_unavailable (502, 424 under the opt-in contract), free', async () => {
    const before = await t.server.services.credits.balance(t.accountId);
    platformDown = true;
    const down = await t.request('POST', '/api/v1/draws', { body: { tweetUrl: g.tweetUrl } });
    const optIn = await t.request('POST', '/api/v1/draws', {
      body: { tweetUrl: g.tweetUrl },
      headers: { 'svc-api-contract': '2026-04-29' },
    });
    const extraction = await t.request('POST', '/api/v1/extractions', {
      body: { toolType: 'reply_extractor', targetTweetId: g.tweetId },
    });
    platformDown = false;
    expect(down.status).toBe(502);
    expect(down.body.error).toBe('x_api_unavailable');
    expect(optIn.status).toBe(424);
    expect(optIn.body.error.code).toBe('x_api_unavailable');
    expect(extraction.status).toBe(502);
    expect(await t.server.services.credits.balance(t.accountId)).toBe(before);
  });

  it('a failed final deduction answers 402 insufficient_credits and stores no draw', async () => {
    const listed = (await t.request('GET', '/api/v1/draws?limit=100')).body.draws.length;
    drainDuringRead = true;
    const r = await t.request('POST', '/api/v1/draws', { body: { tweetUrl: g.tweetUrl } });
    drainDuringRead = false;
    expect(r.status).toBe(402);
    expect(r.body.error).toBe('insufficient_credits');
    expect((await t.request('GET', '/api/v1/draws?limit=100')).body.draws).toHaveLength(listed);
    const rows = await t.server.services.database.db.selectFrom('draws').select('id').execute();
    expect(rows).toHaveLength(listed);
    await setBalance(t, 1_000_000n);
  });
});
