/**
 * `@xsvc/sdk/draws`: verifiable giveaway draws. `verifyDraw(draw, entries)` re-runs a draw from its record
 * and its entries export and confirms or refutes its winners; the procedure's steps are exported for
 * anyone who wants to check one piece (or port it). Runtime-neutral: Web Crypto only.
 */
export type { DrawEntryFacts } from './procedure.js';
export {
  COMMITTED_DRAW_PROCEDURE,
  canonicalJson,
  committedSeed,
  DRAW_PROCEDURE,
  drawPicks,
  entriesHash,
  entropyHash,
  entryListText,
  filtersHash,
  newSeed,
  SeededIndexes,
  seedHash,
  sha256Hex,
} from './procedure.js';
export type {
  DrawCheck,
  DrawVerification,
  DrawWinner,
  ExportedDrawEntry,
  PublishedCommitment,
  VerifiableDraw,
} from './verify.js';
export { verifyDraw } from './verify.js';
