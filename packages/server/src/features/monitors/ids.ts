import { randomInt } from 'node:crypto';
import { SnowflakeIds } from '../../platform/simulated/ids.js';

const NODE_BITS = 10n;
const SEQUENCE_BITS = 12n;

/**
 * Time-sortable ids for monitors and stored events (spec 2.1: big integers as strings): the platform's
 * snowflake layout ({@link SnowflakeIds}: milliseconds since the platform epoch in the high bits, then 22
 * bits) with a 10-bit node number (random per generator, so two server instances rarely collide) above a
 * 12-bit sequence. Ids of one generator strictly increase; every id made after 2018 has 19 digits, so text
 * order is time order. On the rare collision with another instance the caller calls
 * {@link TimeIds.reroll} and retries.
 */
export class TimeIds {
  /** The time and sequence steps (the sequence stays below 4096, so it leaves the node bits free). */
  private readonly steps = new SnowflakeIds();
  private node = BigInt(randomInt(1 << Number(NODE_BITS)));

  /** The next id, for time `ms` (the injected clock's now). */
  next(ms: number): string {
    return (BigInt(this.steps.next(ms)) | (this.node << SEQUENCE_BITS)).toString();
  }

  /** Takes another node number, after an id of this generator collided with one made elsewhere. */
  reroll(): void {
    this.node = BigInt(randomInt(1 << Number(NODE_BITS)));
  }
}

const generators = new WeakMap<object, TimeIds>();

/** The id generator of one server (keyed by its database handle), shared by its request handlers. */
export function idsOf(owner: object): TimeIds {
  let ids = generators.get(owner);
  if (!ids) {
    ids = new TimeIds();
    generators.set(owner, ids);
  }
  return ids;
}
