import type { Transport } from '../core.js';
import { AbortError, TimeoutError, XsvcError } from '../errors.js';
import type { Item, Output, Params } from '../op-types.js';
import type { PagePromise } from '../pagination.js';
import { ExtractionsResource } from '../resources.generated.js';
import { sleep } from '../retry.js';
import type { ExtractionJob as ExtractionJobData } from '../types.generated.js';
import type { RequestOptions } from '../types.js';

/** Options of {@link ExtractionRun.wait}. */
export interface ExtractionWaitOptions {
  signal?: AbortSignal | undefined;
  /** Called with the job after every poll (its `totalResults` grows while it runs). */
  onProgress?: ((job: ExtractionJobData) => void) | undefined;
  /** Delay between polls. Default 1 000 ms. */
  pollIntervalMs?: number | undefined;
  /** Give up waiting after this long (the job goes on). Default 30 minutes. */
  timeoutMs?: number | undefined;
}

/** Thrown by `wait()` when the job ended `failed`; `job.errorMessage` says why. */
export class ExtractionFailedError extends XsvcError {
  static override readonly brand: string = 'ExtractionFailedError';
  override readonly name = 'ExtractionFailedError';
  constructor(readonly job: ExtractionJobData) {
    super(`extraction ${job.id} failed: ${job.errorMessage ?? 'no reason given'}`);
  }
}

/** A running or finished extraction job: wait for it, iterate its results, export them. */
export class ExtractionRun {
  readonly id: string;
  readonly toolType: string;
  status: string;

  constructor(
    private readonly api: ExtractionsApi,
    created: { id: string; toolType: string; status: string },
  ) {
    this.id = created.id;
    this.toolType = created.toolType;
    this.status = created.status;
  }

  /** Polls until the job leaves `running`; resolves with the completed job, throws when it failed. */
  async wait(options: ExtractionWaitOptions = {}): Promise<ExtractionJobData> {
    const timeoutMs = options.timeoutMs ?? 1_800_000;
    const deadline = Date.now() + timeoutMs;
    const interval = options.pollIntervalMs ?? 1_000;
    for (;;) {
      const page = await this.api.get(
        this.id,
        { limit: 1 },
        options.signal ? { signal: options.signal } : {},
      );
      const job = (page.body as { job: ExtractionJobData }).job;
      this.status = job.status;
      options.onProgress?.(job);
      if (job.status === 'failed') throw new ExtractionFailedError(job);
      if (job.status !== 'running') return job;
      if (Date.now() + interval > deadline) throw new TimeoutError(timeoutMs);
      try {
        await sleep(interval, options.signal);
      } catch (err) {
        throw new AbortError({ cause: err });
      }
    }
  }

  /** Every result, in id order, across pages. */
  results(
    params?: Omit<Params<'getExtraction'>, 'after' | 'cursor'>,
    options?: RequestOptions,
  ): PagePromise<Item<'getExtraction'>, Output<'getExtraction'>> {
    return this.api.get(this.id, params, options);
  }

  /** The results as a file in one of the 7 formats; read `response.body` as a stream. */
  export(params: Params<'exportExtraction'>, options?: RequestOptions): Promise<Response> {
    return this.api.export(this.id, params, options);
  }
}

/** `client.extractions`: runs return a handle to wait on, iterate and export. */
export class ExtractionsApi extends ExtractionsResource {
  constructor(t: Transport) {
    super(t);
  }

  /**
   * Starts an extraction (202) and returns its handle: `const run = await client.extractions.run({...});
   * await run.wait(); for await (const r of run.results()) …`.
   */
  override run(
    params: Params<'createExtraction'>,
    options?: RequestOptions,
  ): Promise<Output<'createExtraction'> & ExtractionRun> {
    return super
      .run(params, options)
      .then((created) => Object.assign(new ExtractionRun(this, created), created));
  }

  /** A handle on an existing job, by id. */
  job(id: string, toolType = 'unknown'): ExtractionRun {
    return new ExtractionRun(this, { id, toolType, status: 'running' });
  }
}
