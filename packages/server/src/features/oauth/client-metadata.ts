import http from 'node:http';
import https from 'node:https';
import { z } from 'zod';
import type { OAuthClient } from '../../core/auth/oauth-store.js';
import { pinnedLookup } from '../../core/ssrf/pinned-lookup.js';
import { checkWebhookTarget, type Resolver, type Target } from '../../core/ssrf/target.js';

/** A client metadata document is at most this large (spec 5.3.3: 5 KiB). */
export const METADATA_MAX_BYTES = 5 * 1024;
/** The whole fetch of a metadata document, connection included. */
export const METADATA_TIMEOUT_MS = 5_000;

/** Why a client metadata document was refused; the message is safe to show on the error page. */
export class ClientMetadataError extends Error {
  override readonly name = 'ClientMetadataError';
}

const Document = z.object({
  client_id: z.string(),
  client_name: z.string().min(1).max(200).optional(),
  redirect_uris: z.array(z.string().min(1)).min(1),
  token_endpoint_auth_method: z.enum(['none']).optional(),
});

/** True when a `client_id` is the URL of a client metadata document rather than a registered UUID. */
export function isMetadataClientId(clientId: string): boolean {
  return clientId.startsWith('https://') || clientId.startsWith('http://');
}

/** How {@link fetchClientMetadata} reaches the network (the same guard as webhook deliveries). */
export interface MetadataFetchOptions {
  /** `XSVC_ALLOW_LOOPBACK_WEBHOOKS`: documents on http://127.0.0.1 / http://localhost are allowed too. */
  readonly allowLoopback: boolean;
  readonly resolver: Resolver;
  /** The whole fetch's limit, in ms (default {@link METADATA_TIMEOUT_MS}). */
  readonly timeoutMs?: number;
}

/**
 * The client a metadata document describes (spec 5.3.3): its URL is its `client_id`; the document is JSON
 * served as `application/json`, at most 5 KiB, fetched without following redirects through the SSRF guard
 * of webhook deliveries (https only; every resolved address checked and pinned), repeating the exact client
 * id and listing every redirect URI. Such clients are public (`none`).
 */
export async function fetchClientMetadata(
  clientId: string,
  options: MetadataFetchOptions,
): Promise<OAuthClient> {
  let target: Target;
  try {
    target = await checkWebhookTarget(clientId, { allowLoopback: options.allowLoopback }, options.resolver);
  } catch (err) {
    throw new ClientMetadataError(`the client id URL is refused: ${(err as Error).message}`);
  }
  const { status, contentType, body } = await get(target, options.timeoutMs ?? METADATA_TIMEOUT_MS);
  if (status !== 200) throw new ClientMetadataError(`the client metadata document answered HTTP ${status}`);
  if (!/^application\/json\b/i.test(contentType))
    throw new ClientMetadataError('the client metadata document must be served as application/json');
  let parsed: z.output<typeof Document>;
  try {
    parsed = Document.parse(JSON.parse(body));
  } catch {
    throw new ClientMetadataError(
      'the client metadata document is not valid: it needs client_id and redirect_uris (token_endpoint_auth_method none)',
    );
  }
  if (parsed.client_id !== clientId)
    throw new ClientMetadataError('the client metadata document must repeat its exact URL as client_id');
  return {
    id: clientId,
    name: parsed.client_name ?? new URL(clientId).host,
    redirectUris: parsed.redirect_uris,
    authMethod: 'none',
    secretHash: null,
  };
}

/** One GET of a vetted target: no redirects, at most {@link METADATA_MAX_BYTES}, within the timeout. */
function get(
  target: Target,
  timeoutMs: number,
): Promise<{ status: number; contentType: string; body: string }> {
  return new Promise((resolve, reject) => {
    const isHttps = target.url.protocol === 'https:';
    let request: http.ClientRequest;
    try {
      request = (isHttps ? https : http).request({
        method: 'GET',
        host: target.kind === 'name' ? target.host : target.address,
        port: target.port,
        path: `${target.url.pathname}${target.url.search}`,
        headers: { accept: 'application/json', host: target.url.host },
        ...(target.kind === 'name' && {
          lookup: pinnedLookup(target),
          servername: target.host.replace(/\.$/, ''),
        }),
      });
    } catch (err) {
      reject(
        new ClientMetadataError(
          `the client metadata document could not be fetched: ${(err as Error).message}`,
        ),
      );
      return;
    }
    const fail = (message: string) => {
      request.destroy();
      reject(new ClientMetadataError(message));
    };
    // One deadline for the whole fetch (a socket timeout alone lets a server that trickles bytes hold on).
    const deadline = setTimeout(() => fail('the client metadata document did not answer in time'), timeoutMs);
    request.on('close', () => clearTimeout(deadline));
    request.on('error', (err) => fail(`the client metadata document could not be fetched: ${err.message}`));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > METADATA_MAX_BYTES) fail('the client metadata document is larger than 5 KiB');
        else chunks.push(chunk);
      });
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          contentType: String(response.headers['content-type'] ?? ''),
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      response.on('error', (err) => fail(`the client metadata document could not be read: ${err.message}`));
    });
    request.end();
  });
}
