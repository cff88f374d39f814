import { schemas } from '@xsvc/sdk/contract';
import { paidCall } from '../../core/billing/metering.js';
import { HttpError } from '../../core/http/errors.js';
import { defineReadHandlers } from '../../core/reads/define.js';

/** The job id of a reference the contract accepted: a numeric id or a job URL. */
function jobIdOf(ref: string): string {
  return /\/jobs\/(\d{1,25})/i.exec(ref)?.[1] ?? ref.trim();
}

/**
 * A job listing in the API's shape: what the platform stores, keeping only the contract's fields (an
 * unknown key would break the response contract); a listing that does not fit it is reduced to `id`/`url`.
 */
function toJob(raw: Record<string, unknown>, id: string): schemas.Job {
  const parsed = schemas.JobSchema.safeParse(raw);
  return parsed.success ? parsed.data : { id, url: `https://x.com/jobs/${id}` };
}

/** A job listing (spec 4.10): 1 credit per call; a missing or closed job is 404 `job_not_found`, free. */
export const jobHandlers = defineReadHandlers({
  getJob: async (ctx) => {
    const id = jobIdOf(ctx.params.id);
    const job = await paidCall(ctx, async () => {
      const found = await ctx.services.platform.job(id);
      if (!found) throw new HttpError('job_not_found', `no job ${id}`);
      if (found.closed) throw new HttpError('job_not_found', `job ${id} is closed`);
      return toJob(found.job, id);
    });
    return { job };
  },
});
