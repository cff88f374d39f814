/** Runs the receiver: `WEBHOOK_SECRET=... PORT=3000 pnpm start`, listening on 127.0.0.1. */
import { createApp } from './app.js';

const secret = process.env.WEBHOOK_SECRET;
if (secret === undefined || secret === '') {
  console.error('Set WEBHOOK_SECRET to the endpoint secret shown when the webhook was created.');
  process.exit(1);
}
const port = Number(process.env.PORT ?? 3000);

const app = createApp({
  secret,
  onEvent: (event) => {
    console.log(`received ${event.eventType}`, JSON.stringify(event.data));
  },
});
app.listen(port, '127.0.0.1', () => {
  console.log(`webhook receiver on http://127.0.0.1:${port}/webhooks`);
});
