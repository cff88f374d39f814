/**
 * `node --import ./unhandled-error-preload.mjs dist/bin.js`: on SIGUSR2 the process meets an `'error'` event
 * nobody listens to; on SIGWINCH, a rejected promise nobody awaits. Only the last-resort handler's own test
 * loads it, to prove the handler catches both and the server keeps serving.
 */
import { EventEmitter } from 'node:events';

process.on('SIGUSR2', () => {
  new EventEmitter().emit('error', new Error('chaos: an error event without a listener'));
});
process.on('SIGWINCH', () => {
  void Promise.reject(new Error('chaos: a rejection nobody awaits'));
});
