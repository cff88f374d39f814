import type { CreateTweetInput } from './control-types.js';
import { SimulatedPlatformError } from './errors.js';

/** The longest tweet text: a Note Tweet (spec 8.3). */
export const MAX_TEXT = 25_000;
export const USERNAME = /^[A-Za-z0-9_]{1,15}$/;
export const VERIFIED_TYPES: readonly string[] = ['blue', 'business', 'government'];

const invalid = (message: string) => new SimulatedPlatformError('invalid_input', message);

/** Checks a new tweet's text, media and poll; answers the text, its length in characters and the media. */
export function validateTweetInput(input: CreateTweetInput): {
  text: string;
  length: number;
  media: NonNullable<CreateTweetInput['media']>;
} {
  const text = input.text ?? '';
  const length = [...text].length;
  if (length > MAX_TEXT) throw invalid(`text is ${length} characters; the most is ${MAX_TEXT}`);
  const media = input.media ?? [];
  if (media.length > 4) throw invalid('at most 4 media items');
  if (media.some((m) => !['photo', 'video', 'animated_gif'].includes(m.type)))
    throw invalid('unknown media type');
  if (input.poll && media.length) throw invalid('a tweet has media or a poll, not both');
  if (input.poll) {
    const { options, durationMinutes = 1_440 } = input.poll;
    if (options.length < 2 || options.length > 4) throw invalid('a poll has 2 to 4 options');
    if (options.some((o) => !o.trim() || [...o].length > 25))
      throw invalid('poll options are 1-25 characters');
    if (!Number.isInteger(durationMinutes) || durationMinutes < 5 || durationMinutes > 10_080) {
      throw invalid('poll duration is 5 minutes to 7 days');
    }
  }
  if (input.lang !== undefined && !/^[a-z]{2,3}$/.test(input.lang))
    throw invalid('lang must be an ISO 639 code');
  return { text, length, media };
}

/** Checks the profile fields of a new account or a profile change (the platform's lengths, http(s) URLs). */
export function validateProfile(p: {
  name?: string | undefined;
  description?: string | undefined;
  location?: string | undefined;
  url?: string | undefined;
  profilePicture?: string | undefined;
  coverPicture?: string | undefined;
}): void {
  const max = (value: string | undefined, n: number, field: string) => {
    if (value !== undefined && (typeof value !== 'string' || [...value].length > n)) {
      throw invalid(`${field} is at most ${n} characters`);
    }
  };
  max(p.name, 50, 'name');
  max(p.description, 160, 'description');
  max(p.location, 30, 'location');
  for (const [field, value] of [
    ['url', p.url],
    ['profilePicture', p.profilePicture],
    ['coverPicture', p.coverPicture],
  ] as const) {
    if (value !== undefined && value !== '' && !/^https?:\/\/\S{1,500}$/.test(value))
      throw invalid(`${field} must be an http(s) URL`);
  }
}
