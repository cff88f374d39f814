/**
 * Synthetic extraction rows for the export benchmark: the columns a reply extraction fills, with text in
 * the scripts people post in (so that the PDF's font fallback chain and bidi pass do real work), quotes,
 * line breaks and formula-like cells. Generated one at a time, so the input itself takes no memory.
 */

/** The columns of a reply extraction's export, in the server's order. */
export const COLUMNS = [
  { key: 'id', label: 'Id' },
  { key: 'xUsername', label: 'Username' },
  { key: 'xDisplayName', label: 'Name' },
  { key: 'xUserId', label: 'User id' },
  { key: 'xFollowersCount', label: 'Followers' },
  { key: 'xVerified', label: 'Verified' },
  { key: 'tweetId', label: 'Tweet id' },
  { key: 'tweetText', label: 'Tweet' },
  { key: 'tweetCreatedAt', label: 'Posted' },
  { key: 'description', label: 'Bio' },
  { key: 'location', label: 'Location' },
  { key: 'followingCount', label: 'Following' },
  { key: 'statusesCount', label: 'Posts' },
  { key: 'likeCount', label: 'Likes' },
  { key: 'lang', label: 'Language' },
  { key: 'createdAt', label: 'Collected' },
] as const;

export type BenchRow = Record<(typeof COLUMNS)[number]['key'], string | number | boolean>;

const TEXTS = [
  'Count me in! Great giveaway, thanks @brand 🎉',
  'Wow, "amazing" offer\nsecond line, with a comma',
  '=HYPERLINK("http://example.com") not a formula',
  '山田太郎です。よろしくお願いします',
  'مرحبا بالعالم، أتمنى الفوز',
  'שלום עולם, בהצלחה לכולם',
  'Привет мир! Γειά σου κόσμε',
  'नमस्ते दुनिया, शुभकामनाएँ',
  'สวัสดีครับ ขอให้โชคดี',
  '👍🏽 ❤️ 🇯🇵 love this',
];
const NAMES = ['Ada Lovelace', '山田太郎', 'محمد علي', 'Иван Петров', 'Ελένη', 'Priya शर्मा'];
const LANGS = ['en', 'ja', 'ar', 'he', 'ru', 'hi', 'th'];

/** `count` rows, one at a time, the same for every writer (deterministic). */
export function* benchRows(count: number): Generator<BenchRow> {
  const base = Date.UTC(2026, 3, 1);
  for (let i = 0; i < count; i++) {
    yield {
      id: `res_${String(i).padStart(8, '0')}`,
      xUsername: `user_${i}`,
      xDisplayName: NAMES[i % NAMES.length] as string,
      xUserId: String(1_000_000_000 + i * 7),
      xFollowersCount: (i * 37) % 100_000,
      xVerified: i % 11 === 0,
      tweetId: `18000000${String(i).padStart(11, '0')}`,
      tweetText: `${TEXTS[i % TEXTS.length]} #${i}`,
      tweetCreatedAt: new Date(base + i * 61_000).toISOString(),
      description: i % 3 === 0 ? 'Coffee, code & cats | she/her' : 'Engineer; runner; 📷',
      location: i % 2 ? 'Tokyo 東京' : 'Tel Aviv תל אביב',
      followingCount: (i * 13) % 5_000,
      statusesCount: (i * 101) % 90_000,
      likeCount: i % 500,
      lang: LANGS[i % LANGS.length] as string,
      createdAt: new Date(base + 86_400_000 + i * 1_000).toISOString(),
    };
  }
}
