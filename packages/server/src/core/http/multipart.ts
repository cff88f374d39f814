import type { FastifyInstance, FastifyRequest } from 'fastify';
import { acceptEncoding, takesEncoding } from './body-parsers.js';
import { HttpError } from './errors.js';

const MULTIPART = 'multipart/form-data';

/** Bytes of a whole multipart body, files and text fields (support attachments, uploads). */
export const MULTIPART_BODY_BYTES = 26 * 1024 * 1024;

/** A parsed multipart body: text fields as strings, files as `File`s; a repeated field is an array. */
export type MultipartBody = Record<string, string | File | (string | File)[]>;

/** Parses a `multipart/form-data` body with the platform's own form-data reader (no dependency). */
export async function parseMultipart(contentType: string, body: Buffer): Promise<MultipartBody> {
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new HttpError('invalid_input', 'the multipart/form-data body could not be read');
  }
  const out: MultipartBody = {};
  for (const [name, value] of form.entries()) {
    const prev = out[name];
    if (prev === undefined) out[name] = value;
    else out[name] = Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

/**
 * Accepts `multipart/form-data` request bodies on the routes named in `routes` (`'POST /api/v1/support/tickets'`:
 * tickets and replies take file attachments) and on the contract operations that declare multipart bodies;
 * any other route refuses them (415). Text fields become strings and files `File`s, so the operation's schema
 * validates the fields as it would a JSON body. The parser is added once: another feature may already have
 * added it.
 */
export function registerMultipartBodies(app: FastifyInstance, routes: readonly string[] = []): void {
  acceptEncoding(app, 'multipart', routes);
  if (app.hasContentTypeParser(MULTIPART)) return;
  app.addContentTypeParser(
    MULTIPART,
    { parseAs: 'buffer', bodyLimit: MULTIPART_BODY_BYTES },
    async (request: FastifyRequest, body: Buffer) =>
      takesEncoding(request, 'multipart')
        ? parseMultipart(String(request.headers['content-type']), body)
        : undefined,
  );
}

/** The files of a request's multipart body, in the order sent (none for a JSON body). */
export function filesOf(request: FastifyRequest): File[] {
  const body = request.body;
  if (!body || typeof body !== 'object') return [];
  const files: File[] = [];
  for (const value of Object.values(body as Record<string, unknown>)) {
    for (const v of Array.isArray(value) ? value : [value]) if (v instanceof Blob) files.push(v as File);
  }
  return files;
}
