import type { KeyedBox } from '../../core/crypto/secret-box.js';

/**
 * A browser authorization's sealed state (`flow_enc` of its challenge row): the platform's login flow (it
 * holds the PKCE verifier) and the authorization URL shown while it waits.
 */
export function sealAuthorization(box: KeyedBox, flow: string, url: string): string {
  return box.seal(JSON.stringify({ flow, url }));
}

/** Opens what {@link sealAuthorization} sealed; undefined when it is not one (or another key sealed it). */
export function openAuthorization(box: KeyedBox, flowEnc: string): { flow: string; url: string } | undefined {
  try {
    const o = JSON.parse(box.open(flowEnc)) as { flow?: unknown; url?: unknown };
    return typeof o.flow === 'string' && typeof o.url === 'string' ? { flow: o.flow, url: o.url } : undefined;
  } catch {
    return undefined;
  }
}
