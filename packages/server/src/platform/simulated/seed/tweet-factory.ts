import { languagePack, noteText, replyText, sentence, tweetText } from '../content.js';
import { type EntityResolver, parseEntities } from '../entities.js';
import { snowflake } from '../ids.js';
import { buildMedia, type MediaType, shortLink } from '../media.js';
import type { Prng } from '../prng.js';
import type { StoredEntities, StoredPoll } from '../stored.js';
import { LINK_DOMAINS, SOURCES, TOPICS, type Topic } from '../vocabulary.js';
import { DAY, HOUR, type SeedTweet, type SeedUser, type TweetKind } from './model.js';

/** What an original tweet may be given instead of drawn at random. */
export interface OriginalOptions {
  text?: string;
  note?: number;
  media?: readonly MediaType[];
  poll?: readonly string[];
  link?: string;
  article?: { title: string; body: string };
  /** No random extras (scripted tweets keep exactly their text). */
  plain?: boolean;
}

/**
 * Builds one tweet of each kind with its text, entities, media, poll and metadata. References to other
 * tweets are indexes; ids are assigned once every tweet exists (in time order).
 */
export class TweetFactory {
  private readonly userIds = new Map<string, string>();
  private readonly links = new Map<string, string>();
  private readonly resolver: EntityResolver = {
    userId: (name) => this.userIds.get(name),
    expand: (url) => this.links.get(url),
  };

  constructor(
    private readonly prng: Prng,
    private readonly users: readonly SeedUser[],
    readonly tweets: SeedTweet[],
    private readonly pickPopular: () => number,
  ) {
    for (const u of users) this.userIds.set(u.username.toLowerCase(), u.id);
  }

  original(author: SeedUser, at: number, options: OriginalOptions = {}): SeedTweet {
    const { prng } = this;
    const lang = options.plain || prng.chance(0.9) ? author.lang : 'en';
    const topic = prng.chance(0.7) ? author.topic : prng.pick(TOPICS);
    const note = options.note ?? (!options.plain && prng.chance(0.01) ? prng.pareto(300, 1.1, 25_000) : 0);
    let text: string;
    let link = options.link ? this.shorten(options.link) : undefined;
    if (options.article) {
      link = this.shorten('https://x.com/i/article/pending');
      text = `${options.text ?? options.article.title} ${link}`;
    } else if (options.text !== undefined) {
      text = link ? `${options.text} ${link}` : options.text;
      if (note) text = `${text}\n\n${noteText(prng, lang, topic, note - text.length - 2)}`;
    } else if (note) {
      text = noteText(prng, lang, topic, note);
    } else {
      if (prng.chance(0.12)) link = this.shorten(this.randomLink());
      const mentions = prng.chance(0.08) ? [(this.users[this.pickPopular()] as SeedUser).username] : [];
      text = tweetText(prng, lang, topic, {
        hashtags: prng.chance(0.3) ? prng.int(1, 2) : 0,
        cashtag: prng.chance(0.12),
        mentions,
        ...(link && { link }),
      });
    }
    const tweet = this.make(author, 'tweet', text, at, lang);
    tweet.isNote = text.length > 280;
    const mediaTypes = options.media ?? (options.plain || tweet.isNote ? [] : this.randomMedia());
    if (mediaTypes.length) {
      tweet.media = mediaTypes.map((t) => buildMedia(prng, t, snowflake(at, prng.int(0, 4095))));
    }
    const pollLabels =
      options.poll ??
      (!options.plain && !mediaTypes.length && prng.chance(0.02) ? this.randomPoll(topic) : []);
    if (pollLabels.length) tweet.poll = this.poll(pollLabels, at);
    if (!options.plain && author.communities.length && prng.chance(0.12)) {
      tweet.community = prng.pick(author.communities);
    }
    if (options.article) {
      const body = options.article.body;
      tweet.article = {
        title: options.article.title,
        body,
        preview: body.length > 200 ? `${body.slice(0, 197)}…` : body,
        cover: `https://pbs.twimg.com/media/${snowflake(at, 2)}.jpg`,
      };
    }
    if (!options.plain) this.disclose(tweet);
    return tweet;
  }

  reply(author: SeedUser, target: SeedTweet, at: number, text?: string): SeedTweet {
    const parentAuthor = this.users[target.author] as SeedUser;
    const topic = (this.users[target.author] as SeedUser).topic;
    const body = text ?? replyText(this.prng, author.lang, topic, parentAuthor.username);
    const tweet = this.make(author, 'reply', body, at, author.lang);
    tweet.parent = target.index;
    tweet.root = target.root;
    tweet.isNote = body.length > 280;
    if (this.prng.chance(0.05)) {
      tweet.media = [
        buildMedia(this.prng, this.prng.chance(0.7) ? 'photo' : 'animated_gif', snowflake(at, 3)),
      ];
    }
    return tweet;
  }

  /** A reply of the author to their own tweet, continuing a thread. */
  threadReply(author: SeedUser, target: SeedTweet, at: number, text?: string): SeedTweet {
    const body = text ?? sentence(this.prng, target.lang, author.topic);
    const tweet = this.make(author, 'reply', body, at, target.lang);
    tweet.parent = target.index;
    tweet.root = target.root;
    tweet.isNote = body.length > 280;
    return tweet;
  }

  quote(author: SeedUser, target: SeedTweet, at: number): SeedTweet {
    const topic = (this.users[target.author] as SeedUser).topic;
    const text = this.prng.chance(0.5)
      ? sentence(this.prng, author.lang, topic)
      : tweetText(this.prng, author.lang, topic, { hashtags: this.prng.chance(0.3) ? 1 : 0 });
    const tweet = this.make(author, 'quote', text, at, author.lang);
    tweet.quoted = target.index;
    return tweet;
  }

  retweet(author: SeedUser, target: SeedTweet, at: number): SeedTweet {
    const original = this.users[target.author] as SeedUser;
    const tweet = this.make(author, 'retweet', `RT @${original.username}: ${target.text}`, at, target.lang);
    tweet.retweeted = target.index;
    const mentions = [{ id: original.id, username: original.username }, ...(target.entities.mentions ?? [])];
    tweet.entities = { ...target.entities, mentions };
    delete tweet.entities.contentDisclosure;
    tweet.isNote = target.isNote;
    return tweet;
  }

  /** A short reaction in the author's language, for scripted replies. */
  reaction(author: SeedUser): string {
    return this.prng.pick(languagePack(author.lang).replies);
  }

  private make(author: SeedUser, kind: TweetKind, text: string, at: number, lang: string): SeedTweet {
    const index = this.tweets.length;
    const tweet: SeedTweet = {
      index,
      id: '',
      author: author.index,
      text,
      createdAt: at,
      lang,
      source: this.prng.pick(SOURCES),
      kind,
      parent: -1,
      quoted: -1,
      retweeted: -1,
      root: index,
      isNote: false,
      media: null,
      poll: null,
      entities: kind === 'retweet' ? {} : this.entities(text),
      community: null,
      deleted: false,
      likes: 0,
      retweets: 0,
      replies: 0,
      quotes: 0,
      views: 0,
      bookmarks: 0,
    };
    this.tweets.push(tweet);
    return tweet;
  }

  private entities(text: string): StoredEntities {
    return parseEntities(text, this.resolver);
  }

  private shorten(url: string): string {
    const short = shortLink(this.prng);
    this.links.set(short, url);
    return short;
  }

  private randomLink(): string {
    return `https://${this.prng.pick(LINK_DOMAINS)}/${this.prng.pick(['post', 'p', 'watch', 'story', '2026'])}/${this.prng.int(1000, 999_999)}`;
  }

  private randomMedia(): MediaType[] {
    if (!this.prng.chance(0.18)) return [];
    const type = this.prng.weighted<MediaType>(['photo', 'video', 'animated_gif'], [70, 22, 8]);
    if (type !== 'photo') return [type];
    return Array(this.prng.weighted([1, 2, 3, 4], [70, 15, 7, 8])).fill('photo');
  }

  private randomPoll(topic: Topic): string[] {
    return this.prng.sample(topic.words, this.prng.int(2, 4)).map((w) => w[0]?.toUpperCase() + w.slice(1));
  }

  private poll(labels: readonly string[], at: number): StoredPoll {
    const duration = this.prng.pick([HOUR, DAY, 3 * DAY, 7 * DAY]);
    return {
      options: labels.map((label) => ({ label, votes: this.prng.pareto(1, 1.2, 50_000) - 1 })),
      endsAt: at + duration,
    };
  }

  private disclose(tweet: SeedTweet): void {
    if (this.prng.chance(0.004))
      tweet.entities.contentDisclosure = { advertising: { isPaidPromotion: true } };
    if (tweet.media && this.prng.chance(0.03)) {
      tweet.entities.contentDisclosure = {
        ...tweet.entities.contentDisclosure,
        aiGenerated: { hasAiGeneratedMedia: true },
      };
    }
  }
}
