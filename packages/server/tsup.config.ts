import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    bin: 'src/app/bin.ts',
    // Started as a worker by the webhooks' threaded dispatcher (XSVC_WEBHOOK_THREADS), from this path.
    'sender-thread': 'src/features/webhooks/sender-thread.ts',
  },
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts' } },
  clean: true,
  target: 'node20',
  platform: 'node',
  sourcemap: true,
  banner: ({ format }) => (format === 'esm' ? {} : {}),
});
