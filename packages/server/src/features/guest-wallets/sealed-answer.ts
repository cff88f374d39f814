import { secretBox } from '../../core/crypto/secret-box.js';
import type { Services } from '../../core/services.js';

/**
 * The stored form of a checkout answer kept for idempotent replays. The first answer of a new wallet holds
 * its guest key, a credential: the whole answer is sealed (AES-256-GCM, the server's secret box), so the
 * database never holds a usable key in clear, and a replay still returns the key that was lost in transit.
 */
export async function sealAnswer(services: Services, answer: object): Promise<string> {
  const box = await secretBox(services);
  return JSON.stringify({ sealed: box.seal(JSON.stringify(answer)) });
}

/** The answer {@link sealAnswer} stored (rows written before sealing hold the answer itself). */
export async function openAnswer(services: Services, stored: string): Promise<unknown> {
  const parsed = JSON.parse(stored) as { sealed?: unknown };
  if (typeof parsed.sealed !== 'string') return parsed;
  const box = await secretBox(services);
  return JSON.parse(box.open(parsed.sealed));
}
