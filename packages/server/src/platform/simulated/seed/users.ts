import { bio, displayName } from '../content.js';
import { SNOWFLAKE_EPOCH_MS, SnowflakeIds, snowflake } from '../ids.js';
import { token } from '../media.js';
import type { Prng } from '../prng.js';
import {
  FIRST_NAMES,
  HANDLE_WORDS,
  LANGUAGE_CODES,
  LANGUAGE_WEIGHTS,
  LAST_NAMES,
  LOCATIONS,
  TOPICS,
} from '../vocabulary.js';
import { FIXED_ACCOUNTS } from './fixed-accounts.js';
import { DAY, type SeedUser } from './model.js';

const FIRST_SIGNUP = Date.UTC(2007, 0, 1);

/** The avatar URL of a user (3% keep the default egg). */
export function avatarUrl(prng: Prng, createdAt: number): string {
  if (prng.chance(0.03))
    return 'https://abs.twimg.com/sticky/default_profile_images/default_profile_normal.png';
  return `https://pbs.twimg.com/profile_images/${snowflake(Math.max(createdAt, Date.UTC(2012, 0, 1)), prng.int(0, 4095))}/${token(prng, 8)}_normal.jpg`;
}

/** The banner URL of a user. */
export function bannerUrl(userId: string, at: number): string {
  return `https://pbs.twimg.com/profile_banners/${userId}/${Math.floor(at / 1000)}`;
}

/**
 * The accounts of the network: the fixed demo accounts first, then `count` generated ones with creation
 * dates spread over the years, a few verified (blue, business, government), protected or suspended, and
 * heavy-tailed popularity and activity.
 */
export function generateUsers(prng: Prng, count: number, now: number): SeedUser[] {
  const taken = new Set<string>(FIXED_ACCOUNTS.map((f) => f.username.toLowerCase()));
  const generated: Omit<SeedUser, 'index' | 'id'>[] = [];
  for (let i = FIXED_ACCOUNTS.length; i < count; i++) {
    // More sign-ups in later years: bias the uniform draw towards now.
    const createdAt = Math.floor(FIRST_SIGNUP + (now - 30 * DAY - FIRST_SIGNUP) * prng.next() ** 0.7);
    const name = displayName(prng);
    const username = uniqueHandle(prng, name, taken);
    const topic = prng.pick(TOPICS);
    const lang = prng.weighted(LANGUAGE_CODES, LANGUAGE_WEIGHTS);
    const v = prng.next();
    const verifiedType = v < 0.04 ? 'blue' : v < 0.046 ? 'business' : v < 0.047 ? 'government' : null;
    generated.push({
      username,
      name,
      description: bio(prng, topic),
      location: prng.chance(0.65) ? prng.pick(LOCATIONS) : '',
      url: prng.chance(0.3) ? `https://example.com/${username.toLowerCase()}` : '',
      profilePicture: avatarUrl(prng, createdAt),
      coverPicture: prng.chance(0.75) ? 'pending' : '',
      verified: verifiedType !== null,
      verifiedType,
      protected: prng.chance(0.03),
      suspended: prng.chance(0.01),
      createdAt,
      lang,
      topic,
      popularity: prng.pareto(1, 1.1, 50_000) * (verifiedType ? 8 : 1),
      activity: prng.pareto(1, 1.4, 400),
      communities: [],
    });
  }
  generated.sort((a, b) => a.createdAt - b.createdAt);

  const users: SeedUser[] = [];
  const ids = new SnowflakeIds();
  // Accounts older than snowflake ids (late 2010) get small sequential ids, as on the real platform.
  let legacyId = 1_000;
  const usedIds = new Set<string>();
  for (const u of generated) {
    let id: string;
    // Accounts older than snowflake ids (2010-11-04T01:42:54.657Z) have sequential legacy ids: a snowflake
    // of an earlier time would be 0 for all of them.
    if (u.createdAt < SNOWFLAKE_EPOCH_MS) {
      legacyId += prng.int(1, 40_000);
      id = String(legacyId);
    } else {
      id = ids.next(u.createdAt);
    }
    usedIds.add(id);
    users.push({ ...u, index: 0, id });
  }

  const totalPopularity = users.reduce((s, u) => s + u.popularity, 0);
  const fixed: SeedUser[] = FIXED_ACCOUNTS.map((f) => {
    let id = f.id ?? snowflake(f.createdAt, 7);
    while (usedIds.has(id)) id = (BigInt(id) + 1n).toString();
    usedIds.add(id);
    const topic = TOPICS.find((t) => t.name === f.topic) ?? (TOPICS[0] as (typeof TOPICS)[number]);
    return {
      index: 0,
      id,
      username: f.username,
      name: f.name,
      description: f.description,
      location: f.location,
      url: f.url,
      profilePicture: avatarUrl(prng, f.createdAt),
      coverPicture: 'pending',
      verified: f.verifiedType !== null,
      verifiedType: f.verifiedType,
      protected: f.protected ?? false,
      suspended: f.suspended ?? false,
      createdAt: f.createdAt,
      lang: 'en',
      topic,
      popularity: (f.followShare / (1 - f.followShare)) * totalPopularity,
      activity: 20,
      communities: [],
    };
  });

  const all = [...fixed, ...users];
  for (const [index, u] of all.entries()) {
    u.index = index;
    if (u.coverPicture === 'pending') u.coverPicture = bannerUrl(u.id, u.createdAt + prng.int(1, 400) * DAY);
  }
  return all;
}

function uniqueHandle(prng: Prng, name: string, taken: Set<string>): string {
  const [first = prng.pick(FIRST_NAMES), last = prng.pick(LAST_NAMES)] = name.split(' ');
  const clean = (s: string) =>
    s
      .normalize('NFD')
      .replace(/[^A-Za-z0-9_]/g, '')
      .slice(0, 15);
  const patterns = [
    () => `${first}${last}`,
    () => `${first}_${last}`,
    () => `${first.toLowerCase()}${prng.int(1, 9999)}`,
    () => `${prng.pick(HANDLE_WORDS)}${first}`,
    () => `${first}${prng.pick(HANDLE_WORDS)}`,
    () => `${first[0]}${last}`.toLowerCase(),
  ];
  let handle = clean(prng.pick(patterns)());
  if (handle.length < 4) handle = clean(`${handle}${last}`);
  while (taken.has(handle.toLowerCase())) handle = `${handle.slice(0, 11)}${prng.int(0, 9999)}`;
  taken.add(handle.toLowerCase());
  return handle;
}
