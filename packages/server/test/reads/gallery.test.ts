import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestServer, type TestServer } from '../helpers/server.js';
import { network } from './fixtures.js';

describe.each(ENGINES)('media gallery page (%s)', (engine) => {
  let t: TestServer;
  let photosTweet: string;
  beforeAll(async () => {
    t = await startTestServer(engine);
    photosTweet = (await network(t)).photosTweet;
  });
  afterAll(async () => t?.close());

  const download = async (body: unknown) => {
    const r = await t.request('POST', '/api/v1/x/media/download', { body });
    expect(r.status).toBe(200);
    return r.body as { galleryUrl: string; cacheHit: boolean; totalMedia: number; totalTweets: number };
  };
  const pathOf = (url: string) => new URL(url).pathname;

  it('serves the photos of a downloaded tweet as a page, with download links and a strict CSP', async () => {
    const d = await download({ tweetId: photosTweet });
    expect(d.cacheHit).toBe(false);
    const page = await t.request('GET', pathOf(d.galleryUrl), { key: null });
    expect(page.status).toBe(200);
    expect(String(page.headers['content-type'])).toContain('text/html');
    expect(String(page.headers['content-security-policy'])).toContain("default-src 'none'");
    expect(page.body).toContain('Media of 1 tweet (2 files)');
    expect(page.body).toContain('@xsvc_demo');
    const images = [...String(page.body).matchAll(/<img src="([^"]+)"/g)].map((m) => m[1]);
    expect(images).toHaveLength(2);
    expect(images.every((src) => src?.startsWith('https://pbs.twimg.com/media/'))).toBe(true);
    expect(String(page.body).match(/download>Download photo</g)).toHaveLength(2);
    expect(page.body).toContain(`/status/${photosTweet}`);
  });

  it('shows videos with every MP4 rendition, best first, and GIFs looping', async () => {
    const posted = await t.request('POST', '/sim/tweets', {
      body: {
        author: 'jack',
        text: 'clip <b>and</b> "gif" & more',
        media: [{ type: 'video' }, { type: 'animated_gif' }],
      },
    });
    expect(posted.status).toBe(201);
    const d = await download({ tweetUrl: `https://x.com/jack/status/${posted.body.id}` });
    expect(d).toMatchObject({ totalTweets: 1, totalMedia: 2 });
    const html = String((await t.request('GET', pathOf(d.galleryUrl), { key: null })).body);
    // The text is escaped, never markup.
    expect(html).toContain('clip &lt;b&gt;and&lt;/b&gt; &quot;gif&quot; &amp; more');
    expect(html).not.toContain('<b>and</b>');
    const video = /<video controls preload="none" poster="[^"]+"><source src="([^"]+)"/.exec(html);
    expect(video?.[1]).toContain('/vid/1280x720/');
    expect(html).toContain('1280x720 · 2.2 Mbps');
    expect(html.indexOf('1280x720')).toBeLessThan(html.indexOf('640x360'));
    expect(html).toContain(' loop muted>');
    expect(html).not.toContain('.m3u8'); // the HLS playlist is not a downloadable file
  });

  it('answers JSON when asked, and keeps one gallery per set of tweets (cache hit)', async () => {
    const first = await download({ tweetIds: [photosTweet] });
    const again = await download({ tweetInput: photosTweet });
    expect(again.cacheHit).toBe(true);
    expect(again.galleryUrl).toBe(first.galleryUrl);
    const json = await t.request('GET', pathOf(first.galleryUrl), {
      key: null,
      headers: { accept: 'application/json' },
    });
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ tweetIds: [photosTweet], totalTweets: 1, totalMedia: 2 });
    expect(json.body.items[0].media).toHaveLength(2);
    const viaQuery = await t.request('GET', `${pathOf(first.galleryUrl)}?format=json`, { key: null });
    expect(viaQuery.body.id).toBe(json.body.id);
  });

  it('leaves tweets without media out of a several-tweet gallery', async () => {
    const textOnly = (await network(t)).textOnlyTweet;
    const d = await download({ tweetIds: [textOnly, photosTweet] });
    const json = await t.request('GET', `${pathOf(d.galleryUrl)}?format=json`, { key: null });
    expect(json.body.tweetIds).toEqual([textOnly, photosTweet]);
    expect(json.body.items.map((i: { tweetId: string }) => i.tweetId)).toEqual([photosTweet]);
  });

  it('answers 404 for an unknown gallery and 400 for a malformed id', async () => {
    const missing = await t.request('GET', '/media/gallery/0123456789abcdef01234567', { key: null });
    expect(missing.status).toBe(404);
    expect(String(missing.headers['content-type'])).toContain('text/html');
    const json = await t.request('GET', '/media/gallery/0123456789abcdef01234567?format=json', { key: null });
    expect(json.body.error).toBe('not_found');
    const bad = await t.request('GET', '/media/gallery/..%2F..%2Fetc', { key: null });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_input');
  });
});
