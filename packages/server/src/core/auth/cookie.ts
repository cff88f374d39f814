/** The cookie that carries a dashboard session (spec 5.1). */
export const SESSION_COOKIE = 'session_token';

/**
 * A `Set-Cookie` value for the session: HttpOnly (no script reads it), SameSite=Lax (no cross-site POST
 * carries it), Secure when the server is public over https. `maxAgeSeconds: 0` clears it.
 */
export function sessionCookieHeader(value: string, maxAgeSeconds: number, secure: boolean): string {
  const parts = [
    `${SESSION_COOKIE}=${encodeURIComponent(value)}`,
    'Path=/',
    `Max-Age=${maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Lax',
  ];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}
