import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: frozen migration
type AnyDb = Kysely<any>;

/** The simulated platform's network: users, tweets, the graph, lists, communities, articles, trends, jobs. */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('sim_users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('username_lower', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('profile_picture', 'text', (c) => c.notNull())
    .addColumn('cover_picture', 'text', (c) => c.notNull())
    .addColumn('verified', 'bigint', (c) => c.notNull())
    .addColumn('verified_type', 'text')
    .addColumn('protected', 'bigint', (c) => c.notNull())
    .addColumn('suspended', 'bigint', (c) => c.notNull())
    .addColumn('pinned_tweet_id', 'text')
    .addColumn('followers_count', 'bigint', (c) => c.notNull())
    .addColumn('following_count', 'bigint', (c) => c.notNull())
    .addColumn('statuses_count', 'bigint', (c) => c.notNull())
    .addColumn('media_count', 'bigint', (c) => c.notNull())
    .addColumn('favourites_count', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('profile_version', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sim_tweets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('author_id', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('conversation_id', 'text', (c) => c.notNull())
    .addColumn('in_reply_to_id', 'text')
    .addColumn('in_reply_to_user_id', 'text')
    .addColumn('quoted_tweet_id', 'text')
    .addColumn('retweet_of_id', 'text')
    .addColumn('is_note', 'bigint', (c) => c.notNull())
    .addColumn('media', 'text')
    .addColumn('poll', 'text')
    .addColumn('entities', 'text', (c) => c.notNull())
    .addColumn('like_count', 'bigint', (c) => c.notNull())
    .addColumn('retweet_count', 'bigint', (c) => c.notNull())
    .addColumn('reply_count', 'bigint', (c) => c.notNull())
    .addColumn('quote_count', 'bigint', (c) => c.notNull())
    .addColumn('view_count', 'bigint', (c) => c.notNull())
    .addColumn('bookmark_count', 'bigint', (c) => c.notNull())
    .addColumn('community_id', 'text')
    .addColumn('deleted', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sim_tweets_author')
    .on('sim_tweets')
    .columns(['author_id', 'created_at'])
    .execute();
  await db.schema.createIndex('sim_tweets_reply').on('sim_tweets').columns(['in_reply_to_id']).execute();
  await db.schema.createIndex('sim_tweets_quote').on('sim_tweets').columns(['quoted_tweet_id']).execute();
  await db.schema.createIndex('sim_tweets_retweet').on('sim_tweets').columns(['retweet_of_id']).execute();
  await db.schema
    .createIndex('sim_tweets_conversation')
    .on('sim_tweets')
    .columns(['conversation_id'])
    .execute();
  await db.schema.createIndex('sim_tweets_community').on('sim_tweets').columns(['community_id']).execute();
  await db.schema.createIndex('sim_tweets_created').on('sim_tweets').columns(['created_at']).execute();

  const pair = (
    name: string,
    a: string,
    b: string,
    extra: (t: ReturnType<AnyDb['schema']['createTable']>) => ReturnType<AnyDb['schema']['createTable']>,
  ) =>
    extra(
      db.schema
        .createTable(name)
        .addColumn(a, 'text', (c) => c.notNull())
        .addColumn(b, 'text', (c) => c.notNull()),
    )
      .addPrimaryKeyConstraint(`${name}_pk`, [a, b] as never)
      .execute();

  await pair('sim_follows', 'follower_id', 'followee_id', (t) =>
    t.addColumn('created_at', 'bigint', (c) => c.notNull()),
  );
  await db.schema
    .createIndex('sim_follows_followee')
    .on('sim_follows')
    .columns(['followee_id', 'created_at'])
    .execute();
  await pair('sim_likes', 'user_id', 'tweet_id', (t) =>
    t.addColumn('created_at', 'bigint', (c) => c.notNull()),
  );
  await db.schema.createIndex('sim_likes_tweet').on('sim_likes').columns(['tweet_id']).execute();
  await pair('sim_bookmarks', 'user_id', 'tweet_id', (t) =>
    t.addColumn('folder_id', 'text').addColumn('created_at', 'bigint', (c) => c.notNull()),
  );

  await db.schema
    .createTable('sim_lists')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('banner_url', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await pair('sim_list_members', 'list_id', 'user_id', (t) =>
    t.addColumn('role', 'text', (c) => c.notNull()),
  );
  await db.schema.createIndex('sim_list_members_user').on('sim_list_members').columns(['user_id']).execute();

  await db.schema
    .createTable('sim_communities')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('creator_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await pair('sim_community_members', 'community_id', 'user_id', (t) =>
    t.addColumn('role', 'text', (c) => c.notNull()).addColumn('joined_at', 'bigint', (c) => c.notNull()),
  );

  await db.schema
    .createTable('sim_articles')
    .addColumn('tweet_id', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body_text', 'text', (c) => c.notNull())
    .addColumn('preview_text', 'text', (c) => c.notNull())
    .addColumn('cover_image_url', 'text')
    .execute();

  await db.schema
    .createTable('sim_spaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('host_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await pair('sim_space_participants', 'space_id', 'user_id', (t) =>
    t.addColumn('role', 'text', (c) => c.notNull()),
  );

  await db.schema
    .createTable('sim_trends')
    .addColumn('woeid', 'bigint', (c) => c.notNull())
    .addColumn('rank', 'bigint', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('query', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sim_trends_pk', ['woeid', 'rank'])
    .execute();

  await db.schema
    .createTable('sim_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('closed', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sim_dms')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('sender_id', 'text', (c) => c.notNull())
    .addColumn('recipient_id', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sim_dms_pair')
    .on('sim_dms')
    .columns(['sender_id', 'recipient_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('sim_notifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('tweet_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sim_notifications_user')
    .on('sim_notifications')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('sim_meta')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const t of [
    'sim_meta',
    'sim_notifications',
    'sim_dms',
    'sim_jobs',
    'sim_trends',
    'sim_space_participants',
    'sim_spaces',
    'sim_articles',
    'sim_community_members',
    'sim_communities',
    'sim_list_members',
    'sim_lists',
    'sim_bookmarks',
    'sim_likes',
    'sim_follows',
    'sim_tweets',
    'sim_users',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
