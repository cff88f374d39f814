/**
 * A sender thread: makes the HTTP POSTs of webhook deliveries for the server's thread, which keeps the
 * database work (fan-out, claims, results) and hands over only POSTs already vetted and signed. Built as its
 * own file (`dist/sender-thread.js`) and started by {@link createThreadedDispatcher}.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { SenderData, ToSender, WireReply } from './sender-wire.js';
import { targetFromWire } from './sender-wire.js';
import { closeAgents, createAgents, sendToTarget } from './transport.js';

const port = parentPort;
if (!port) throw new Error('sender-thread runs as a worker thread');
const data = workerData as SenderData;
const agents = createAgents(data.maxSockets);
/** How to cut off each POST in flight, by id (no AbortController each: one costs microseconds to make). */
const cutOff = new Map<number, () => void>();
let replies: WireReply[] = [];
let flushing = false;

// Outcomes that end in the same turn go back in one message.
function reply(r: WireReply): void {
  replies.push(r);
  if (flushing) return;
  flushing = true;
  setImmediate(() => {
    flushing = false;
    const batch = replies;
    replies = [];
    port?.postMessage(batch);
  });
}

port.on('message', (message: ToSender) => {
  switch (message.type) {
    case 'send':
      for (const request of message.batch) {
        const id = request.id;
        void sendToTarget(
          targetFromWire(request),
          request.body,
          request.headers,
          request.limits,
          agents,
          undefined,
          (cut) => {
            cutOff.set(id, cut);
            return () => cutOff.delete(id);
          },
        ).then((outcome) => {
          cutOff.delete(id);
          reply({ id, outcome });
        });
      }
      return;
    case 'cancel':
      for (const id of message.ids) cutOff.get(id)?.();
      return;
    case 'close':
      closeAgents(agents);
      port.close();
  }
});
