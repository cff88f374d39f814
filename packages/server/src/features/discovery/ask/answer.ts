import type { schemas } from '@xsvc/sdk/contract';
import type { z } from 'zod';
import type { Hit } from './search.js';
import { search } from './search.js';

/** The NLWeb protocol version of the answers. */
export const NLWEB_VERSION = '0.55';

/** An `/ask` request after validation, whichever form it came in (query, flat or structured body). */
export interface AskRequest {
  query: string;
  site?: string | undefined;
  responseFormat: 'chatgpt_app' | 'conversational_search';
  streaming: boolean;
}

/** The failure of an `/ask` request (spec 4.2): its own body, not the API's error body. */
export class AskFailure extends Error {
  override readonly name = 'AskFailure';
  constructor(
    readonly status: number,
    readonly code: 'INVALID_QUERY' | 'TOKEN_LIMIT' | 'INTERNAL_ERROR' | 'RATE_LIMITED',
    message: string,
  ) {
    super(message);
  }

  /** `{ _meta: { response_type: 'failure', version }, error: { code, message } }`. */
  body(): schemas.AskErrorBody {
    return {
      _meta: { response_type: 'failure', version: NLWEB_VERSION },
      error: { code: this.code, message: this.message },
    };
  }
}

/** The answer as handlers return it (enums at their listed values). */
export type AskAnswer = z.input<typeof schemas.AskAnswerSchema>;
type Flat = z.output<typeof schemas.AskFlatRequestSchema>;
type Structured = z.output<typeof schemas.AskStructuredRequestSchema>;

/** Reads a validated GET query or flat POST body. */
export function fromFlat(flat: Flat): AskRequest {
  return {
    query: flat.query,
    site: flat.site,
    responseFormat: flat.response_format,
    streaming: flat.streaming,
  };
}

/** Reads a validated POST body: flat (`query` a string) or structured NLWeb (`query.text`, `prefer`). */
export function fromBody(body: Flat | Structured): AskRequest {
  if (typeof body.query === 'string') return fromFlat(body as Flat);
  const structured = body as Structured;
  return {
    query: structured.query.text,
    site: structured.query.site,
    responseFormat: structured.prefer?.response_format ?? 'conversational_search',
    streaming: structured.prefer?.streaming ?? false,
  };
}

function result(hit: Hit, base: string, host: string): Record<string, unknown> {
  const { entry } = hit;
  return {
    '@type': entry.kind === 'operation' ? 'WebAPI' : 'TechArticle',
    name: entry.name,
    url: `${base}${entry.path}`,
    site: host,
    score: Math.round(hit.score * 1000) / 1000,
    description: entry.description.length > 500 ? `${entry.description.slice(0, 497)}...` : entry.description,
    ...(entry.operation && {
      operationId: entry.operation.operationId,
      method: entry.operation.method,
      path: entry.operation.path,
      tag: entry.operation.tag,
    }),
  };
}

/** The answer: `_meta` and the ranked results (spec 4.2). */
export function answer(request: AskRequest, base: string): AskAnswer {
  const query = request.query.trim();
  if (!query) throw new AskFailure(400, 'INVALID_QUERY', 'query must contain words');
  const host = new URL(base).host;
  return {
    _meta: { response_type: 'answer', response_format: request.responseFormat, version: NLWEB_VERSION },
    results: search(query).map((h) => result(h, base, host)),
  };
}

const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * The same answer as a `text/event-stream`: `begin-nlweb-response` with `_meta`, one `result` event per
 * result (best first), then `end-nlweb-response` with the count.
 */
export function eventStream(body: AskAnswer): string {
  return [
    event('begin-nlweb-response', { _meta: body._meta }),
    ...body.results.map((r) => event('result', r)),
    event('end-nlweb-response', { _meta: body._meta, count: body.results.length }),
  ].join('');
}
