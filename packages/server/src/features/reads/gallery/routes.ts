import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { parseInput } from '../../../core/http/parse-input.js';
import type { Services } from '../../../core/services.js';
import { GALLERY_CSP, galleryPage, missingGalleryPage } from './page.js';
import { findGallery } from './repository.js';

const Params = z.object({ id: z.string().regex(/^[0-9a-f]{24}$/, 'must be a gallery id') });

/** True when the caller asked for JSON (`Accept: application/json` ahead of HTML, or `?format=json`). */
function wantsJson(accept: string | undefined, format: unknown): boolean {
  if (format === 'json') return true;
  const a = (accept ?? '').toLowerCase();
  return a.includes('application/json') && !a.includes('text/html');
}

function html(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', GALLERY_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', status === 200 ? 'public, max-age=60' : 'no-store')
    .send(body);
}

/**
 * `GET /media/gallery/{id}`: the page `downloadMedia` answers as `galleryUrl`, showing every photo, video
 * and GIF of the downloaded tweets with links to each file (every MP4 rendition of a video). Public, like
 * the tweets it shows: its id derives from the tweet ids, so every download of the same tweets shares it.
 * `Accept: application/json` (or `?format=json`) answers the gallery as JSON instead.
 */
export function registerGalleryRoutes(app: FastifyInstance, services: Services): void {
  app.get('/media/gallery/:id', async (request, reply) => {
    const { id } = parseInput(Params, request.params, 'path');
    const format = (request.query as Record<string, unknown> | undefined)?.format;
    const json = wantsJson(request.headers.accept, format);
    const gallery = await findGallery(services.database.db, id);
    if (!gallery) {
      if (json) return reply.status(404).send({ error: 'not_found', message: 'no gallery with this id' });
      return html(reply, 404, missingGalleryPage());
    }
    if (json) {
      return reply.header('cache-control', 'public, max-age=60').send({
        id: gallery.id,
        tweetIds: gallery.tweetIds,
        totalTweets: gallery.items.length,
        totalMedia: gallery.totalMedia,
        items: gallery.items,
        createdAt: new Date(gallery.createdAt).toISOString(),
        updatedAt: new Date(gallery.updatedAt).toISOString(),
      });
    }
    return html(reply, 200, galleryPage(gallery));
  });
}
