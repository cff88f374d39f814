import { UsageError } from '../shared/usage-error.js';

/**
 * Validates `--forward-to`: an absolute http(s) URL. Plain http is fine here (unlike registered webhooks,
 * spec 4.6): the point is forwarding to a local development server.
 */
export function parseForwardUrl(value: string, flag = '--forward-to'): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${flag} must be an absolute URL such as http://127.0.0.1:3000/hook`, flag);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${flag} must be an http or https URL, got ${url.protocol}`, flag);
  }
  return url.toString();
}
