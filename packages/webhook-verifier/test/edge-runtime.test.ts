import { fileURLToPath } from 'node:url';
import { EdgeVM } from '@edge-runtime/vm';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import * as node from '../src/node.js';
import { BODY, NONCE, NOW, SECRET } from './helpers.js';

/**
 * The Web build, bundled as a plain script and evaluated in the Edge Runtime VM (the sandbox Vercel Edge
 * and Next.js middleware use): no `process`, no `Buffer`, no `require`, only Web APIs. If the build leaned
 * on anything Node-only, this would throw.
 */
let vm: EdgeVM;

beforeAll(async () => {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../src/index.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    platform: 'neutral',
    globalName: 'XsvcWebhookVerifier',
    write: false,
    logLevel: 'silent',
  });
  vm = new EdgeVM();
  vm.evaluate(result.outputFiles[0]!.text);
});

describe('Web build inside an edge runtime (EdgeVM)', () => {
  it('has no Node globals there', () => {
    expect(vm.evaluate('typeof process')).toBe('undefined');
    expect(vm.evaluate('typeof Buffer')).toBe('undefined');
    expect(vm.evaluate('typeof require')).toBe('undefined');
    expect(vm.evaluate('typeof crypto.subtle.verify')).toBe('function');
    expect(vm.evaluate('typeof XsvcWebhookVerifier.verifyWebhook')).toBe('function');
  });

  it('signs exactly like the Node build and verifies, inside the VM', async () => {
    const script = `(async () => {
      const V = XsvcWebhookVerifier;
      const body = ${JSON.stringify(BODY)};
      const headers = await V.signWebhook({ secret: ${JSON.stringify(SECRET)}, payload: new TextEncoder().encode(body), timestamp: ${NOW}, nonce: '${NONCE}' });
      const event = await V.verifyWebhook({ payload: new TextEncoder().encode(body).buffer, headers: new Headers(headers), secret: ${JSON.stringify(SECRET)}, now: () => ${NOW} });
      let replay;
      try { await V.verifyWebhook({ payload: body, headers, secret: ${JSON.stringify(SECRET)}, now: () => ${NOW} }); } catch (e) { replay = V.isWebhookVerificationError(e) && e.reason; }
      let tampered;
      try { await V.verifyWebhook({ payload: body + ' ', headers, secret: ${JSON.stringify(SECRET)}, now: () => ${NOW}, nonceStore: false }); } catch (e) { tampered = e.reason; }
      const request = new Request('https://edge.example/hook', { method: 'POST', body, headers });
      const viaRequest = await V.verifyWebhookRequest(request, { secret: ${JSON.stringify(SECRET)}, now: () => ${NOW}, nonceStore: false });
      return JSON.stringify({ headers, event, replay, tampered, viaRequest: viaRequest.deliveryId });
    })()`;
    const result = JSON.parse(await (vm.evaluate(script) as Promise<string>)) as Record<string, unknown>;
    const expected = node.signWebhookSync({ secret: SECRET, payload: BODY, timestamp: NOW, nonce: NONCE });
    expect(result.headers).toEqual(expected);
    expect(result.event).toEqual(JSON.parse(BODY));
    expect(result.replay).toBe('nonce_replayed');
    expect(result.tampered).toBe('signature_mismatch');
    expect(result.viaRequest).toBe('dlv_1');
  });

  it('a delivery signed by the Node build verifies inside the VM, and the reverse', async () => {
    const headers = node.signWebhookSync({
      secret: 'rotated 🔑',
      payload: BODY,
      timestamp: NOW,
      nonce: NONCE,
    });
    vm.context.__input = { headers, body: BODY };
    const ok = await (vm.evaluate(
      `XsvcWebhookVerifier.verifyWebhook({ payload: __input.body, headers: __input.headers, secret: ['old', 'rotated 🔑'], now: () => ${NOW}, nonceStore: false }).then((e) => e.deliveryId)`,
    ) as Promise<string>);
    expect(ok).toBe('dlv_1');
    const vmHeaders = (await vm.evaluate(
      `XsvcWebhookVerifier.signWebhook({ secret: 'edge', payload: __input.body }).then((h) => ({ ...h }))`,
    )) as Record<string, string>;
    expect(
      node.verifyWebhookSync({ payload: BODY, headers: vmHeaders, secret: 'edge', nonceStore: false }),
    ).toEqual(JSON.parse(BODY));
  });
});
