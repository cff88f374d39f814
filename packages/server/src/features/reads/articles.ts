import { paidCall } from '../../core/billing/metering.js';
import { HttpError } from '../../core/http/errors.js';
import type { PlatformArticle, Tweet } from '../../core/platform/platform.js';
import { defineReadHandlers } from '../../core/reads/define.js';
import { toAuthor, tweetIdOf } from '../../core/reads/lookups.js';

/** The Markdown of an article whose body holds one paragraph per line. */
function markdown(a: PlatformArticle): string {
  const paragraphs = a.bodyText.split('\n').filter((p) => p.trim() !== '');
  return [`# ${a.title}`, ...paragraphs].join('\n\n');
}

/** The metrics of the carrying tweet, when it can be read. */
function counts(t: Tweet | undefined) {
  if (!t) return {};
  return {
    ...(t.likeCount !== undefined && { likeCount: t.likeCount }),
    ...(t.replyCount !== undefined && { replyCount: t.replyCount }),
    ...(t.retweetCount !== undefined && { retweetCount: t.retweetCount }),
    ...(t.quoteCount !== undefined && { quoteCount: t.quoteCount }),
    ...(t.viewCount !== undefined && { viewCount: t.viewCount }),
    ...(t.bookmarkCount !== undefined && { bookmarkCount: t.bookmarkCount }),
  };
}

/** The long-form article a tweet carries; 404 `article_not_found` (free) when it carries none. */
export const articleHandlers = defineReadHandlers({
  getArticle: async (ctx) => {
    const { platform } = ctx.services;
    const tweetId = tweetIdOf(ctx.params.tweetId);
    const { article, tweet } = await paidCall(ctx, async () => {
      const found = await platform.article(tweetId);
      if (!found) throw new HttpError('article_not_found', `tweet ${tweetId} carries no readable article`);
      const lookup = await platform.getTweet(found.tweetId);
      return { article: found, tweet: 'tweet' in lookup ? lookup.tweet : undefined };
    });
    return {
      article: {
        // Articles are addressed by their carrying tweet: the id is the tweet's.
        id: article.tweetId,
        tweetId: article.tweetId,
        title: article.title,
        previewText: article.previewText,
        bodyText: article.bodyText,
        bodyMarkdown: markdown(article),
        ...(article.coverImageUrl && { coverImageUrl: article.coverImageUrl }),
        url: `https://x.com/${article.author.username}/article/${article.tweetId}`,
        createdAt: article.createdAt,
        ...counts(tweet),
      },
      author: toAuthor(article.author),
    };
  },
});
