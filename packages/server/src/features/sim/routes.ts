import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireOwner } from '../../core/auth/request-principal.js';
import { parseInput } from '../../core/http/parse-input.js';
import { control } from '../../core/http/platform-errors.js';
import type { Services } from '../../core/services.js';
import { SimulatedControl } from '../../platform/simulated/index.js';
import {
  CreateTweetBody,
  CreateUserBody,
  FollowBody,
  LikeBody,
  ResetBody,
  TweetParams,
  UnfollowParams,
  UpdateUserBody,
  UserParams,
} from './schemas.js';

/** `T` with its possibly-undefined keys made optional and never undefined (exact optional property types). */
type Defined<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/** Drops the keys whose value is undefined: the control's inputs leave absent fields out. */
function defined<T extends object>(value: T): Defined<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Defined<T>;
}

/**
 * The simulated platform's control endpoints (`/sim/*`): create and change accounts, post, reply, quote,
 * repost, delete, follow, like, and reset the network, so monitors, draws and extractions can be driven end
 * to end on one machine. Mounted only when the platform is `simulated`, and only for the owner's
 * credentials (others get 403 `forbidden`).
 */
export function registerSimRoutes(app: FastifyInstance, services: Services): void {
  if (services.config.platform !== 'simulated') return;
  const sim = new SimulatedControl(services.database.db, services.clock);
  const owner = (request: FastifyRequest) =>
    requireOwner(request, services, 'the simulated platform control');

  app.post('/sim/users', async (request, reply) => {
    await owner(request);
    const body = parseInput(CreateUserBody, request.body, 'body');
    return reply.status(201).send(await control(() => sim.createUser(defined(body))));
  });

  app.patch('/sim/users/:username', async (request) => {
    await owner(request);
    const { username } = parseInput(UserParams, request.params, 'path');
    const patch = parseInput(UpdateUserBody, request.body, 'body');
    return control(() => sim.updateUser(username, defined(patch)));
  });

  app.post('/sim/users/:username/following', async (request) => {
    await owner(request);
    const { username } = parseInput(UserParams, request.params, 'path');
    const { target } = parseInput(FollowBody, request.body, 'body');
    await control(() => sim.follow(username, target));
    return { success: true };
  });

  app.delete('/sim/users/:username/following/:target', async (request) => {
    await owner(request);
    const { username, target } = parseInput(UnfollowParams, request.params, 'path');
    await control(() => sim.unfollow(username, target));
    return { success: true };
  });

  app.post('/sim/users/:username/likes', async (request) => {
    await owner(request);
    const { username } = parseInput(UserParams, request.params, 'path');
    const { tweetId } = parseInput(LikeBody, request.body, 'body');
    await control(() => sim.like(username, tweetId));
    return { success: true };
  });

  app.post('/sim/tweets', async (request, reply) => {
    await owner(request);
    const body = parseInput(CreateTweetBody, request.body, 'body');
    const input = defined({
      ...body,
      media: body.media?.map((m) => defined(m)),
      poll: body.poll && defined(body.poll),
    });
    return reply.status(201).send(await control(() => sim.createTweet(input)));
  });

  app.delete('/sim/tweets/:id', async (request) => {
    await owner(request);
    const { id } = parseInput(TweetParams, request.params, 'path');
    await control(() => sim.deleteTweet(id));
    return { success: true };
  });

  app.post('/sim/reset', async (request) => {
    await owner(request);
    const { seed, size } = parseInput(ResetBody, request.body, 'body');
    const report = await control(() => sim.resetNetwork({ seed, size: size ?? services.config.seedSize }));
    return { success: true, seededWith: report.seededWith, counts: report.counts };
  });
}
