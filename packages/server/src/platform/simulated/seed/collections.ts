import type { SimRow } from '../bulk-insert.js';
import { snowflake } from '../ids.js';
import type { Prng } from '../prng.js';
import { COMMUNITY_NAMES, LIST_NAMES, SPACE_TITLES } from '../vocabulary.js';
import { DAY, type SeedUser, weightedSampler } from './model.js';

/** Ids for things made at a time: a snowflake of the time with a rolling sequence, so equal times differ. */
export function idMaker(): (at: number) => string {
  let seq = 0;
  return (at) => snowflake(at, seq++ & 4095);
}

const between = (prng: Prng, from: number, to: number) => Math.floor(from + (to - from) * prng.next());

/** Communities with an admin (the creator), a few moderators and heavy-tailed memberships. */
export function generateCommunities(prng: Prng, users: SeedUser[], count: number, now: number) {
  const communities: SimRow<'sim_communities'>[] = [];
  const members: SimRow<'sim_community_members'>[] = [];
  const id = idMaker();
  const pickMember = weightedSampler(
    prng,
    users.map((u) => u.activity),
  );
  for (let i = 0; i < count; i++) {
    const creator = users[pickMember()] as SeedUser;
    const createdAt = between(prng, Math.max(creator.createdAt, Date.UTC(2021, 8, 1)), now - DAY);
    const name = COMMUNITY_NAMES[i % COMMUNITY_NAMES.length] as string;
    const community = {
      id: id(createdAt),
      name: i < COMMUNITY_NAMES.length ? name : `${name} ${Math.floor(i / COMMUNITY_NAMES.length) + 1}`,
      description: `A place for ${name.toLowerCase()} to share, ask and help each other. Be kind.`,
      creator_id: creator.id,
      created_at: createdAt,
    };
    communities.push(community);
    const size = Math.min(users.length - 1, prng.pareto(8, 1.1, Math.floor(users.length / 2)));
    const chosen = new Set<number>([creator.index]);
    const join = (u: SeedUser, role: string) => {
      members.push({
        community_id: community.id,
        user_id: u.id,
        role,
        joined_at: between(prng, Math.max(createdAt, u.createdAt), now),
      });
      u.communities.push(community.id);
    };
    join(creator, 'admin');
    const moderators = prng.int(1, 4);
    let tries = size * 3;
    while (chosen.size <= size && tries-- > 0) {
      const idx = pickMember();
      if (chosen.has(idx)) continue;
      chosen.add(idx);
      join(users[idx] as SeedUser, chosen.size - 1 <= moderators ? 'moderator' : 'member');
    }
  }
  return { communities, members };
}

/** Lists: an owner, members chosen by popularity, a few followers, half of them with a banner. */
export function generateLists(prng: Prng, users: readonly SeedUser[], count: number, now: number) {
  const lists: SimRow<'sim_lists'>[] = [];
  const members: SimRow<'sim_list_members'>[] = [];
  const id = idMaker();
  const pickOwner = weightedSampler(
    prng,
    users.map((u) => u.activity),
  );
  const pickMember = weightedSampler(
    prng,
    users.map((u) => u.popularity),
  );
  const pickAny = () => prng.int(0, users.length - 1);
  // The demo account owns the first list, with the other fixed accounts as members.
  for (let i = 0; i < count; i++) {
    const owner = (i === 0 ? users[1] : users[pickOwner()]) as SeedUser;
    const createdAt = between(prng, Math.max(owner.createdAt, Date.UTC(2012, 0, 1)), now - DAY);
    const name = i === 0 ? 'xsvc demo accounts' : (prng.pick(LIST_NAMES) as string);
    const list = {
      id: id(createdAt),
      owner_id: owner.id,
      name,
      description: i === 0 || prng.chance(0.6) ? `Accounts I read for ${name.toLowerCase()}.` : '',
      banner_url: prng.chance(0.5)
        ? `https://pbs.twimg.com/list_banner_img/${snowflake(createdAt, 1)}/${prng.int(1e5, 9e5)}`
        : null,
      created_at: createdAt,
    };
    lists.push(list);
    // One row per list and user: a user is a member or a follower of a list, not both.
    const seen = new Set<number>();
    let added = { member: 0, follower: 0 };
    const add = (idx: number, role: 'member' | 'follower') => {
      if (seen.has(idx) || (role === 'follower' && idx === owner.index)) return;
      seen.add(idx);
      added = { ...added, [role]: added[role] + 1 };
      members.push({ list_id: list.id, user_id: (users[idx] as SeedUser).id, role });
    };
    if (i === 0) for (let f = 0; f < 7 && f < users.length; f++) add(f, 'member');
    const size = prng.pareto(3, 1.2, Math.min(200, users.length - 1));
    for (let tries = size * 3; added.member < size && tries > 0; tries--) add(pickMember(), 'member');
    const followers = prng.pareto(1, 1.3, Math.min(100, users.length - 1)) - 1;
    for (let tries = followers * 3; added.follower < followers && tries > 0; tries--)
      add(pickAny(), 'follower');
  }
  return { lists, members };
}

/** Audio spaces: live, ended or scheduled, with a host, speakers and listeners. */
export function generateSpaces(prng: Prng, users: readonly SeedUser[], count: number, now: number) {
  const spaces: SimRow<'sim_spaces'>[] = [];
  const participants: SimRow<'sim_space_participants'>[] = [];
  const id = idMaker();
  const pickHost = weightedSampler(
    prng,
    users.map((u) => u.popularity),
  );
  for (let i = 0; i < count; i++) {
    const host = users[pickHost()] as SeedUser;
    const state = prng.weighted(['live', 'ended', 'scheduled'], [2, 6, 2]);
    const createdAt = between(prng, Math.max(host.createdAt, now - 60 * DAY), now - 60_000);
    const space = {
      id: id(createdAt),
      host_id: host.id,
      title: prng.pick(SPACE_TITLES),
      state,
      created_at: createdAt,
    };
    spaces.push(space);
    const seen = new Set<number>([host.index]);
    participants.push({ space_id: space.id, user_id: host.id, role: 'host' });
    const speakers = prng.int(1, 4);
    const listeners = prng.int(0, Math.min(60, users.length - 6));
    for (let n = 0, tries = 300; n < speakers + listeners && tries > 0; tries--) {
      const idx = prng.int(0, users.length - 1);
      if (seen.has(idx)) continue;
      seen.add(idx);
      participants.push({
        space_id: space.id,
        user_id: (users[idx] as SeedUser).id,
        role: n < speakers ? 'speaker' : 'listener',
      });
      n++;
    }
  }
  return { spaces, participants };
}
