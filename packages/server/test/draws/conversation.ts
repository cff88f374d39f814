import type { FeatureServer } from '../extractions/helpers.js';

/** A giveaway conversation, and what a draw with {@link Giveaway.filters} should make of it. */
export interface Giveaway {
  tweetId: string;
  tweetUrl: string;
  /** The filters the conversation is built to test. */
  filters: {
    requiredHashtags: string[];
    filterLanguage: string;
    filterAccountAgeDays: number;
    mustRetweet: true;
    mustFollowUsername: string;
  };
  /** Authors whose replies pass every filter. */
  eligible: string[];
  /** Replies to the giveaway tweet (entries), reposters, and authors left for a follow check. */
  counts: { replies: number; reposters: number; followChecks: number };
}

async function must(t: FeatureServer, url: string, body: unknown) {
  const r = await t.request('POST', url, { body });
  if (r.status >= 300) throw new Error(`${url}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/**
 * Builds a giveaway on the simulated network through `/sim`: the host's tweet and replies by several
 * users, one of them twice, every other reply failing exactly one filter:
 * - `a` (twice) and `g`: eligible;
 * - `b`: no #win; `c`: in Spanish; `d`: a 2-day-old account; `e`: did not repost;
 *   `f`: does not follow the sponsor; `host`: the giveaway's own author.
 * Usernames are `<prefix>_<letter>`.
 */
export async function buildGiveaway(t: FeatureServer, prefix: string): Promise<Giveaway> {
  const u = (n: string) => `${prefix}_${n}`;
  const young = new Date(t.clock.now() - 2 * 86_400_000).toISOString();
  for (const n of ['host', 'sponsor', 'a', 'b', 'c', 'd', 'e', 'f', 'g']) {
    await must(t, '/sim/users', { username: u(n), createdAt: n === 'd' ? young : '2020-01-01T00:00:00Z' });
  }
  const giveaway = await must(t, '/sim/tweets', {
    author: u('host'),
    text: `Giveaway! Repost, follow @${u('sponsor')} and reply with #win`,
    lang: 'en',
  });
  const reply = async (n: string, text: string, lang = 'en') => {
    t.clock.advance(1_000);
    await must(t, '/sim/tweets', { author: u(n), text, lang, inReplyToId: giveaway.id });
  };
  await reply('a', 'me please #win');
  await reply('b', 'count me in');
  await reply('c', 'yo quiero #win', 'es');
  await reply('d', 'new here #win');
  await reply('e', 'pick me #win');
  await reply('f', 'hello #win');
  await reply('g', 'great #WIN giveaway');
  await reply('host', 'good luck all #win');
  await reply('a', 'again #win');
  for (const n of ['a', 'b', 'c', 'd', 'f', 'g'])
    await must(t, '/sim/tweets', { author: u(n), retweetOfId: giveaway.id });
  for (const n of ['a', 'b', 'c', 'd', 'e', 'g'])
    await must(t, `/sim/users/${u(n)}/following`, { target: u('sponsor') });
  return {
    tweetId: giveaway.id,
    tweetUrl: `https://x.com/${u('host')}/status/${giveaway.id}`,
    filters: {
      requiredHashtags: ['#win'],
      filterLanguage: 'en',
      filterAccountAgeDays: 30,
      mustRetweet: true,
      mustFollowUsername: `@${u('sponsor')}`,
    },
    eligible: [u('a'), u('g')],
    // Follow checks: the authors left after the text, profile and repost filters (a, f, g).
    counts: { replies: 9, reposters: 6, followChecks: 3 },
  };
}
