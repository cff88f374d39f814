import { defineFeature } from '../../core/feature.js';
import { extractionHandlers } from './handlers.js';
import { EXTRACTION_JOB_KIND, type ExtractionRunnerOptions } from './runner.js';
import { runnerRoutes } from './runtime.js';
import { EXTRACTIONS_TABLES } from './tables.js';

/**
 * The extractions feature of one server (spec 4.11): the operations, and the job runner, which starts when
 * the server is ready (so `running` jobs left by a previous process resume) unless `autoStart` is off, and
 * stops when the server closes, handing unfinished jobs back.
 */
export function extractionsFeature(options: ExtractionRunnerOptions = {}) {
  return defineFeature({
    name: 'extractions',
    handlers: extractionHandlers,
    routes: runnerRoutes(options),
    jobs: [EXTRACTION_JOB_KIND],
    tables: EXTRACTIONS_TABLES,
  });
}
