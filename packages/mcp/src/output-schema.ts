import { z } from 'zod';
import { compacted } from './json-schema.js';

/**
 * A failed call as a tool error result carries it (`isError: true`, `data: null`). Declared in every
 * envelope because MCP clients validate `structuredContent` against the output schema even on error results
 * (the 1.x SDK does, and refuses the whole result when it does not match).
 */
export const ToolFailureOutput = z.object({
  code: z.string(),
  status: z.number().int().optional(),
  message: z.string(),
  next_step: z.string(),
  retry_after_seconds: z.number().optional(),
});

/**
 * What every read tool answers. One small envelope instead of a union of every action's response: the
 * response schemas would multiply the size of tools/list, and `explore` gives any of them on demand.
 */
export const ReadOutput = z.object({
  action: z.string(),
  data: z.unknown().describe('The API answer (its schema: explore); null when error is set.'),
  next_cursor: z.string().optional().describe('More results: pass it as params.cursor.'),
  error: ToolFailureOutput.optional().describe('Set on error results only.'),
});
export type ReadOutput = z.infer<typeof ReadOutput>;

/** What every write tool answers: the API answer, and the state of a durable write. */
export const WriteOutput = ReadOutput.omit({ next_cursor: true }).extend({
  status: z
    .string()
    .optional()
    .describe('Durable write state: success, or still pending (then do not send it again).'),
  write_action_id: z.string().optional().describe('Id for write_actions get.'),
  next_step: z.string().optional(),
});
export type WriteOutput = z.infer<typeof WriteOutput>;

/** What `call` answers: a read's or a write's envelope, whichever the operation is. */
export const CallOutput = WriteOutput.extend({ next_cursor: ReadOutput.shape.next_cursor });
export type CallOutput = z.infer<typeof CallOutput>;

/** What `explore` answers. */
export const ExploreOutput = z.object({
  total: z.number().int(),
  operations: z.array(z.record(z.string(), z.unknown())),
});
export type ExploreOutput = z.infer<typeof ExploreOutput>;

/**
 * The envelopes as tools register them, their JSON Schemas converted once per process. The read and write
 * envelopes repeat in every tool, so they are listed without descriptions: the server's instructions and
 * each tool's description say what `next_cursor`, `status` and `error` mean.
 */
export const OUTPUT_SCHEMAS = {
  read: compacted(ReadOutput, { descriptions: false }),
  write: compacted(WriteOutput, { descriptions: false }),
  explore: compacted(ExploreOutput),
  call: compacted(CallOutput),
};
