import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestServer, type TestServer } from '../helpers/server.js';
import { setBalance } from '../reads/fixtures.js';
import { connectThroughApi, newSimUser } from '../x-accounts/helpers.js';
import { ok, read, refused, userIds, write } from './helpers.js';

/** A multipart request of `fields` (files as Blobs), as `fetch` would send it. */
async function multipart(fields: Record<string, string | Blob>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (typeof v === 'string') form.append(k, v);
    else form.append(k, v, 'upload');
  }
  const req = new Request('http://local/', { method: 'POST', body: form });
  return { rawBody: Buffer.from(await req.arrayBuffer()), type: req.headers.get('content-type') as string };
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

/**
 * Follows, direct messages, uploads, profiles and communities written as a connected account; each change is
 * checked through the read endpoints.
 */
describe.each(ENGINES)('people, media, profile and community writes (%s)', (engine) => {
  let t: TestServer;
  let me: { id: string; xUserId: string; xUsername: string };
  beforeAll(async () => {
    t = await startTestServer(engine);
    await setBalance(t, (t as TestServer & { accountId: string }).accountId, 1_000_000);
    me = await connectThroughApi(t, (await newSimUser(t, 'people')).username);
  });
  afterAll(async () => t?.close());

  /** Sends a multipart write (uploads, avatars, banners). */
  async function upload(method: 'POST' | 'PATCH', url: string, fields: Record<string, string | Blob>) {
    const { rawBody, type } = await multipart(fields);
    const app = t.server.app;
    const res = await app.inject({
      method,
      url,
      payload: rawBody,
      headers: { 'content-type': type, 'x-api-key': t.key, 'idempotency-key': crypto.randomUUID() },
    });
    return { status: res.statusCode, body: JSON.parse(res.body) };
  }

  it('follows and unfollows a user, and removes a follower; the follower reads follow', async () => {
    const follow = await ok(t, 'POST', '/api/v1/x/users/jack/follow', { account: me.id });
    expect(follow).toMatchObject({
      action: 'follow',
      // Named by username, the user is a target with an id once the platform resolved it.
      target: { type: 'user', id: '12' },
      targetId: '12',
      result: { type: 'state_change', state: 'following' },
    });
    const check = await read(t, `/api/v1/x/followers/check?source=${me.xUsername}&target=jack`);
    expect(check).toMatchObject({ isFollowing: true });
    await ok(t, 'POST', '/api/v1/x/users/@jack/follow', { account: me.id });
    await ok(t, 'DELETE', '/api/v1/x/users/12/follow', { account: me.id });
    expect(await read(t, `/api/v1/x/followers/check?source=${me.xUsername}&target=jack`)).toMatchObject({
      isFollowing: false,
    });

    const fan = await newSimUser(t, 'fan');
    await t.request('POST', `/sim/users/${fan.username}/following`, { body: { target: me.xUsername } });
    expect(userIds(await read(t, `/api/v1/x/users/${me.xUsername}/followers`))).toContain(fan.id);
    await ok(t, 'POST', `/api/v1/x/users/${fan.username}/remove-follower`, { account: me.id });
    expect(userIds(await read(t, `/api/v1/x/users/${me.xUsername}/followers`))).not.toContain(fan.id);

    await refused(
      t,
      'POST',
      '/api/v1/x/users/nobody_here_x/follow',
      { account: me.id },
      422,
      'x_target_not_found',
    );
    await refused(
      t,
      'POST',
      '/api/v1/x/users/suspended_acct/follow',
      { account: me.id },
      422,
      'x_target_not_found',
    );
    await refused(t, 'POST', `/api/v1/x/users/${me.xUsername}/follow`, { account: me.id }, 422, 'x_rejected');
    await refused(
      t,
      'DELETE',
      '/api/v1/x/users/nobody_here_x/follow',
      { account: me.id },
      422,
      'x_target_not_found',
    );
    await refused(
      t,
      'POST',
      '/api/v1/x/users/nobody_here_x/remove-follower',
      { account: me.id },
      422,
      'x_target_not_found',
    );
    await refused(t, 'POST', '/api/v1/x/users/not a user/follow', { account: me.id }, 400, 'invalid_input');
  });

  it('limits follows to 20 a minute per account (429 x_rate_limited with Retry-After)', async () => {
    t.clock.advance(61_000);
    const actor = await connectThroughApi(t, (await newSimUser(t, 'limit')).username);
    for (let i = 0; i < 20; i++) await ok(t, 'POST', '/api/v1/x/users/jack/follow', { account: actor.id });
    const limited = await write(t, 'POST', '/api/v1/x/users/jack/follow', { account: actor.id });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('x_rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    t.clock.advance(61_000);
    await ok(t, 'POST', '/api/v1/x/users/jack/follow', { account: actor.id });
  });

  it('sends direct messages that the conversation read shows, and refuses the ones the platform refuses', async () => {
    const dm = await ok(t, 'POST', '/api/v1/x/dm/12', { account: me.id, text: 'Thanks for the feedback!' });
    expect(dm).toMatchObject({
      action: 'send_dm',
      result: { type: 'direct_message' },
      messageId: dm.result.id,
    });
    const history = await read(t, `/api/v1/x/dm/12/history?account=${me.id}`);
    expect(history.messages.map((m: { id: string }) => m.id)).toContain(dm.messageId);

    await refused(
      t,
      'POST',
      `/api/v1/x/dm/${me.xUserId}`,
      { account: me.id, text: 'me' },
      422,
      'x_dm_not_allowed',
    );
    const locked = await t.request('GET', '/api/v1/x/users/locked_account');
    await refused(
      t,
      'POST',
      `/api/v1/x/dm/${locked.body.id ?? locked.body.user?.id}`,
      { account: me.id, text: 'hi' },
      422,
      'x_dm_not_allowed',
    );
    await refused(
      t,
      'POST',
      '/api/v1/x/dm/12',
      { account: me.id, text: 'x'.repeat(10_001) },
      422,
      'x_content_too_long',
    );
    await refused(t, 'POST', '/api/v1/x/dm/1', { account: me.id, text: 'hello?' }, 422, 'x_target_not_found');
    await refused(
      t,
      'POST',
      '/api/v1/x/dm/12',
      { account: me.id, text: 'hi', media_ids: ['42'] },
      422,
      'x_target_not_found',
    );
    await refused(t, 'POST', '/api/v1/x/dm/12', { account: me.id, text: '' }, 400, 'invalid_input');
    // The recipient is a numeric user id: a username (or anything else) is the contract's invalid_user_id.
    for (const bad of ['jack', '@jack', '12a', '1'.repeat(26)])
      await refused(t, 'POST', `/api/v1/x/dm/${bad}`, { account: me.id, text: 'hi' }, 400, 'invalid_user_id');
  });

  it('uploads a file (multipart) that is served back and attaches to a tweet and a message', async () => {
    const res = await upload('POST', '/api/v1/x/media', {
      account: me.id,
      file: new Blob([PNG], { type: 'image/png' }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      action: 'upload_media',
      status: 'success',
      result: { type: 'media' },
      media: { type: 'image', mimeType: 'image/png', sizeBytes: PNG.length },
    });
    const { mediaId, mediaUrl } = res.body;
    expect(mediaUrl).toMatch(new RegExp(`/sim/media/${mediaId}$`));
    const served = await t.server.app.inject({ method: 'GET', url: new URL(mediaUrl).pathname });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(new Uint8Array(served.rawPayload)).toEqual(PNG);

    const tweet = await ok(t, 'POST', '/api/v1/x/tweets', {
      account: me.id,
      text: 'launch',
      media: [mediaUrl],
    });
    const read1 = await read(t, `/api/v1/x/tweets/${tweet.tweetId}`);
    expect(read1.tweet.media).toEqual([expect.objectContaining({ type: 'photo', mediaUrl })]);
    await ok(t, 'POST', '/api/v1/x/dm/12', { account: me.id, text: 'see attached', media_ids: [mediaId] });

    const byUrl = await write(t, 'POST', '/api/v1/x/media', {
      account: me.id,
      url: 'https://cdn.example.com/fun.gif',
    });
    expect(byUrl.status).toBe(200);
    expect(byUrl.body.media).toMatchObject({ type: 'gif', url: 'https://cdn.example.com/fun.gif' });

    const unknown = await write(t, 'POST', '/api/v1/x/media', {
      account: me.id,
      url: 'https://cdn.example.com/x',
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error).toBe('media_download_failed');
    const wrongType = await upload('POST', '/api/v1/x/media', {
      account: me.id,
      file: new Blob(['hi'], { type: 'text/plain' }),
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error).toBe('invalid_input');
    const both = await upload('POST', '/api/v1/x/media', {
      account: me.id,
      file: new Blob([PNG], { type: 'image/png' }),
      url: 'https://cdn.example.com/a.png',
    });
    expect(both.status).toBe(400);
    const longVideo = await upload('POST', '/api/v1/x/media', {
      account: me.id,
      file: new Blob([PNG], { type: 'video/mp4' }),
      is_long_video: 'true',
    });
    expect(longVideo.status).toBe(422);
    expect(longVideo.body.error).toBe('x_account_feature_required');
  });

  it('updates the profile, the avatar (multipart) and the banner (URL); the user read shows them', async () => {
    await ok(t, 'PATCH', '/api/v1/x/profile', {
      account: me.id,
      name: 'New Name',
      description: 'Building tools',
    });
    const user = await read(t, `/api/v1/x/users/${me.xUsername}`);
    expect(JSON.stringify(user)).toContain('New Name');
    expect(JSON.stringify(user)).toContain('Building tools');
    await refused(
      t,
      'PATCH',
      '/api/v1/x/profile',
      { account: me.id, name: 'n'.repeat(51) },
      422,
      'x_content_too_long',
    );
    await refused(t, 'PATCH', '/api/v1/x/profile', { account: me.id, url: 'ftp://nope' }, 422, 'x_rejected');
    await refused(t, 'PATCH', '/api/v1/x/profile', { account: me.id }, 400, 'invalid_input');

    const avatar = await upload('PATCH', '/api/v1/x/profile/avatar', {
      account: me.id,
      file: new Blob([PNG], { type: 'image/png' }),
    });
    expect(avatar.status, JSON.stringify(avatar.body)).toBe(200);
    const banner = await write(t, 'PATCH', '/api/v1/x/profile/banner', {
      account: me.id,
      url: 'https://cdn.example.com/banner.jpg',
    });
    expect(banner.status).toBe(200);
    const after = JSON.stringify(await read(t, `/api/v1/x/users/${me.xUsername}`));
    expect(after).toContain(avatar.body.media.url);
    expect(after).toContain('https://cdn.example.com/banner.jpg');
    await refused(
      t,
      'PATCH',
      '/api/v1/x/profile/banner',
      { account: me.id, url: 'https://cdn.example.com/clip.mp4' },
      422,
      'x_rejected',
    );
  });

  it('creates, joins, leaves and deletes communities; the community reads follow', async () => {
    await refused(
      t,
      'POST',
      '/api/v1/x/communities',
      { account: me.id, name: 'Mine' },
      422,
      'x_account_feature_required',
    );
    const owner = await connectThroughApi(t, 'blue_creator');
    const created = await ok(t, 'POST', '/api/v1/x/communities', {
      account: owner.id,
      name: 'Rust builders',
      description: 'Ship Rust in production',
    });
    expect(created).toMatchObject({ result: { type: 'community' }, communityName: 'Rust builders' });
    const id = created.communityId;
    const info = await read(t, `/api/v1/x/communities/${id}/info`);
    expect(JSON.stringify(info)).toContain('Rust builders');
    await refused(
      t,
      'POST',
      '/api/v1/x/communities',
      { account: owner.id, name: 'rust BUILDERS' },
      422,
      'x_duplicate_action',
    );

    await ok(t, 'POST', `/api/v1/x/communities/${id}/join`, { account: me.id });
    expect(userIds(await read(t, `/api/v1/x/communities/${id}/members`))).toContain(me.xUserId);
    await ok(t, 'DELETE', `/api/v1/x/communities/${id}/join`, { account: me.id });
    expect(userIds(await read(t, `/api/v1/x/communities/${id}/members`))).not.toContain(me.xUserId);
    await refused(t, 'DELETE', `/api/v1/x/communities/${id}/join`, { account: owner.id }, 422, 'x_rejected');

    await refused(
      t,
      'DELETE',
      `/api/v1/x/communities/${id}`,
      { account: me.id, community_name: 'Rust builders' },
      422,
      'x_rejected',
    );
    await refused(
      t,
      'DELETE',
      `/api/v1/x/communities/${id}`,
      { account: owner.id, community_name: 'Rust' },
      422,
      'x_rejected',
    );
    await ok(t, 'DELETE', `/api/v1/x/communities/${id}`, {
      account: owner.id,
      community_name: 'Rust builders',
    });
    expect((await t.request('GET', `/api/v1/x/communities/${id}/info`)).status).toBe(404);
    await refused(
      t,
      'POST',
      `/api/v1/x/communities/${id}/join`,
      { account: me.id },
      422,
      'x_target_not_found',
    );
    await refused(
      t,
      'DELETE',
      `/api/v1/x/communities/${id}/join`,
      { account: me.id },
      422,
      'x_target_not_found',
    );
    await refused(t, 'POST', '/api/v1/x/communities', { account: owner.id, name: ' ' }, 400, 'invalid_input');
  });
});
