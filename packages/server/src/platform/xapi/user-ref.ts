/** A user reference resolved to what the X API looks up by: an id or a username. */
export type UserRef = { id: string } | { username: string };

const ID = /^\d{1,19}$/;
const USERNAME = /^[A-Za-z0-9_]{1,15}$/;
const PROFILE_URL = /^(?:https?:\/\/)?(?:www\.|mobile\.)?(?:x|twitter)\.com\/([^?#]+)/i;

/**
 * Reads a `userRef` of the `Platform` interface: a numeric id, a username with or without @, or a profile
 * URL (`https://x.com/jack`, `twitter.com/jack/status/…`, `x.com/i/user/12`). Undefined when it is none.
 */
export function parseUserRef(ref: string): UserRef | undefined {
  const value = ref.trim();
  const url = PROFILE_URL.exec(value);
  if (url) {
    const [first = '', second, third = ''] = (url[1] ?? '').split('/');
    if (first === 'i') return second === 'user' && ID.test(third) ? { id: third } : undefined;
    return USERNAME.test(first) ? { username: first } : undefined;
  }
  if (ID.test(value)) return { id: value };
  const name = value.replace(/^@/, '');
  return USERNAME.test(name) ? { username: name } : undefined;
}

/** Whether `id` can be an X id (anything else fails a whole batch request with 400). */
export function isXId(id: string): boolean {
  return ID.test(id);
}
