import { escapeHtml } from '../../../core/http/html.js';
import type { Gallery, GalleryItem } from './repository.js';

type Media = GalleryItem['media'][number];

/**
 * The Content-Security-Policy of a gallery page: no scripts, no forms, no frames; images and videos from any
 * web origin (the platform's media hosts), inline styles of the page itself.
 */
export const GALLERY_CSP =
  "default-src 'none'; img-src https: http:; media-src https: http:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** `url` when it is an http(s) URL (so a stored value can never become `javascript:` or `data:`), else undefined. */
export function webUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** The MP4 renditions of a video or GIF, best first. */
function mp4s(m: Media): { url: string; bitrate: number }[] {
  return (m.variants ?? [])
    .filter((v) => v.contentType === 'video/mp4')
    .flatMap((v) => {
      const url = webUrl(v.url);
      return url ? [{ url, bitrate: v.bitrate ?? 0 }] : [];
    })
    .sort((a, b) => b.bitrate - a.bitrate);
}

/** A rendition's label: `1280x720 · 2.2 Mbps`, from its URL and bitrate where known. */
function label(url: string, bitrate: number): string {
  const size = /\/(\d{2,5}x\d{2,5})\//.exec(url)?.[1];
  const rate = bitrate > 0 ? `${(bitrate / 1_000_000).toFixed(1)} Mbps` : '';
  return [size, rate].filter(Boolean).join(' · ') || 'MP4';
}

function mediaHtml(m: Media, n: number): string {
  const poster = webUrl(m.mediaUrl);
  const e = escapeHtml;
  if (m.type === 'photo') {
    if (!poster) return '';
    const original = poster.includes('?') ? poster : `${poster}?name=orig`;
    return `<figure><a href="${e(original)}"><img src="${e(poster)}" alt="Photo ${n}" loading="lazy"></a>
<figcaption><a href="${e(original)}" download>Download photo</a></figcaption></figure>`;
  }
  const files = mp4s(m);
  const best = files[0];
  const kind = m.type === 'animated_gif' ? 'GIF' : 'Video';
  const player = best
    ? `<video controls preload="none"${poster ? ` poster="${e(poster)}"` : ''}${m.type === 'animated_gif' ? ' loop muted' : ''}><source src="${e(best.url)}" type="video/mp4"></video>`
    : poster
      ? `<img src="${e(poster)}" alt="${kind} ${n} preview" loading="lazy">`
      : '';
  const links = files
    .map((f) => `<a href="${e(f.url)}" download>${e(label(f.url, f.bitrate))}</a>`)
    .join(' · ');
  return `<figure>${player}<figcaption>${kind}${links ? `: ${links}` : ''}</figcaption></figure>`;
}

function itemHtml(item: GalleryItem): string {
  const e = escapeHtml;
  const who = item.authorUsername
    ? `${item.authorName ? `${e(item.authorName)} ` : ''}<span class="handle">@${e(item.authorUsername)}</span>`
    : 'Unknown author';
  const link = webUrl(item.tweetUrl);
  const when = e(item.createdAt);
  const text = item.text.length > 500 ? `${item.text.slice(0, 500)}…` : item.text;
  return `<article>
<header>${who} · ${link ? `<a href="${e(link)}">${when}</a>` : when}</header>
<p>${e(text)}</p>
<div class="media">${item.media.map((m, i) => mediaHtml(m, i + 1)).join('\n')}</div>
</article>`;
}

/** The gallery page: every photo, video and GIF of the tweets, each with its download links. */
export function galleryPage(g: Gallery): string {
  const title = `Media of ${g.items.length} ${g.items.length === 1 ? 'tweet' : 'tweets'} (${g.totalMedia} ${g.totalMedia === 1 ? 'file' : 'files'})`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #1a1a1a; }
article { border-top: 1px solid #ddd; padding: 1rem 0; }
header { color: #555; font-size: .875rem; }
.handle { color: #777; }
.media { display: grid; grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr)); gap: 1rem; }
figure { margin: 0; }
img, video { width: 100%; height: auto; border-radius: .375rem; background: #f3f3f3; }
figcaption { font-size: .875rem; color: #555; }
.note { color: #666; font-size: .875rem; }
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<p class="note">Updated ${new Date(g.updatedAt).toISOString()}. Files are served by the platform's media hosts.</p>
${g.items.map(itemHtml).join('\n')}
</body>
</html>
`;
}

/** A small page for a gallery that does not exist. */
export function missingGalleryPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Gallery not found</title></head>
<body><h1>Gallery not found</h1><p>No gallery has this id. Galleries are created by a media download.</p></body>
</html>
`;
}
