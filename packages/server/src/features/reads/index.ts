import type { HandlerMap } from '../../core/http/handler.js';
import { articleHandlers } from './articles.js';
import { communityHandlers } from './communities.js';
import { jobHandlers } from './jobs.js';
import { listHandlers } from './lists.js';
import { mediaHandlers } from './media.js';
import { privateHandlers } from './private.js';
import { replyHandlers } from './replies.js';
import { timelineHandlers } from './timelines.js';
import { trendHandlers } from './trends.js';
import { tweetHandlers } from './tweets.js';
import { userHandlers } from './users.js';
import { viralHandlers } from './viral-score.js';

/**
 * Every platform read (`/x/*`, trends, articles, media download, viral score; spec 4.9-4.11): metered per
 * spec 8.2, paged in style B, platform failures answered with their codes.
 */
export const readHandlers: HandlerMap = {
  ...tweetHandlers,
  ...replyHandlers,
  ...userHandlers,
  ...timelineHandlers,
  ...privateHandlers,
  ...listHandlers,
  ...communityHandlers,
  ...trendHandlers,
  ...articleHandlers,
  ...jobHandlers,
  ...mediaHandlers,
  ...viralHandlers,
};
