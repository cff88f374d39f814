/**
 * Reading the identifiers callers pass: a user is an id, a username with or without @, or a profile URL
 * (x.com or twitter.com, URL-encoded or not); a tweet is an id or a status URL; a job is an id or a job URL.
 */

/** A user reference: by id (digits) or by lower-cased username. */
export type UserRef = { id: string; username?: string } | { username: string; id?: undefined };

const PROFILE_URL =
  /^(?:https?:\/\/)?(?:www\.|mobile\.)?(?:x|twitter)\.com\/(?:#!\/)?(@?[A-Za-z0-9_]{1,15})\/?(?:[?#].*)?$/i;
const USER_ID_URL =
  /^(?:https?:\/\/)?(?:www\.|mobile\.)?(?:x|twitter)\.com\/i\/user\/(\d{1,25})\/?(?:[?#].*)?$/i;
const STATUS_URL =
  /^(?:https?:\/\/)?(?:www\.|mobile\.)?(?:x|twitter)\.com\/(?:[A-Za-z0-9_]{1,15}|i(?:\/web)?)\/status(?:es)?\/(\d{1,25})/i;

/** Undoes URL-encoding (twice at most, for doubly encoded input); leaves malformed input as it is. */
export function decodeRef(raw: string): string {
  let value = raw.trim();
  for (let i = 0; i < 2 && /%[0-9a-f]{2}/i.test(value); i++) {
    try {
      value = decodeURIComponent(value);
    } catch {
      break;
    }
  }
  return value.trim();
}

/** Reads a user reference; `undefined` when it cannot name a user. All-digit input is an id first. */
export function parseUserRef(raw: string): UserRef | undefined {
  const value = decodeRef(raw);
  const byId = USER_ID_URL.exec(value);
  if (byId) return { id: byId[1] as string };
  const url = PROFILE_URL.exec(value);
  const name = url ? (url[1] as string) : value;
  if (/^\d{1,25}$/.test(name) && !url) return name.length <= 15 ? { id: name, username: name } : { id: name };
  const handle = name.replace(/^@/, '');
  return /^[A-Za-z0-9_]{1,15}$/.test(handle) ? { username: handle.toLowerCase() } : undefined;
}

/** The id of a tweet reference (an id or a status URL), or `undefined`. */
export function parseTweetRef(raw: string): string | undefined {
  const value = decodeRef(raw);
  if (/^\d{1,25}$/.test(value)) return value;
  return STATUS_URL.exec(value)?.[1];
}

/** The id of a job reference (an id or `https://x.com/jobs/<id>`), or `undefined`. */
export function parseJobRef(raw: string): string | undefined {
  const value = decodeRef(raw);
  if (/^\d{1,25}$/.test(value)) return value;
  return /^(?:https?:\/\/)?(?:www\.)?(?:x|twitter)\.com\/(?:i\/)?jobs\/(\d{1,25})/i.exec(value)?.[1];
}
