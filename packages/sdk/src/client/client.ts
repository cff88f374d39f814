import { GeneratedClient } from './client.generated.js';
import { Transport } from './core.js';
import { fetchPage, type PageCheckpoint, PagePromise } from './pagination.js';
import { routes } from './routes.generated.js';
import type { ClientOptions, RequestOptions } from './types.js';

/**
 * The client. Every operation of the service is a typed method on a resource mirroring the reference's
 * tags (`client.tweets.search`, `client.monitors.keywords.update`, `client.webhooks.resume`, …).
 *
 * ```ts
 * const xsvc = new Xsvc({ apiKey: process.env.XSVC_API_KEY });
 * for await (const tweet of xsvc.tweets.search({ q: 'from:jack' })) console.log(tweet.text);
 * ```
 *
 * The methods' examples call a client named `xsvc` made with `new Xsvc()`, which takes the API key and base
 * URL from `XSVC_API_KEY` and `XSVC_BASE_URL` (the reference pages show each example as a whole module).
 */
export class Xsvc extends GeneratedClient {
  /** The transport (base URL, retry policy, credentials). */
  readonly transport: Transport;

  constructor(options: ClientOptions = {}) {
    const transport = new Transport(options);
    super(transport);
    this.transport = transport;
  }

  /** The origin requests go to. */
  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  /** Continues a listing from a checkpoint taken with `page.checkpoint()` (in this process or another). */
  resume<Item = unknown, Body = unknown>(
    checkpoint: PageCheckpoint,
    options: RequestOptions = {},
  ): PagePromise<Item, Body> {
    const route = (routes as Record<string, (typeof routes)[keyof typeof routes]>)[checkpoint.operationId];
    if (!route || !('pagination' in route))
      throw new TypeError(`not a paginated operation: ${checkpoint.operationId}`);
    return PagePromise.from(() =>
      fetchPage<Item, Body>(this.transport, route, checkpoint.params, options, checkpoint.cursor),
    );
  }
}
