/**
 * The one background-work engine (issue #13): a `jobs` table with leases, claimed in batches (`FOR UPDATE
 * SKIP LOCKED` on Postgres), and the kinds features declare.
 */
export { defaultOwner, JobsEngine, type JobsEngineOptions, type JobsLog } from './engine.js';
export {
  type ClaimRequest,
  claimJobs,
  countPending,
  deleteJobs,
  enqueue,
  enqueueForRows,
  jobId,
  leaseKey,
  type NewJob,
  type OnExisting,
  parkJobs,
  releaseKey,
  releaseLeases,
  releaseOthersLeases,
  renewLeases,
  settleJobs,
  unparkJobs,
} from './store.js';
export {
  DEFAULT_MAX_ATTEMPTS,
  defaultBackoffMs,
  defaultOnError,
  type Fed,
  type FeedContext,
  JOB_STATE,
  type Job,
  type JobContext,
  type JobKind,
  type JobOutcome,
  type Settled,
} from './types.js';
