/** The edge entry must bundle for a browser-like platform: no Node built-ins in its graph. */
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { signWebhook } from '../../sdk/webhooks/index.ts';
import { verifyWebhookAsync } from '../../sdk/webhooks/web.ts';

describe('service-seller/webhooks/web', () => {
  it('bundles for the browser platform without node: imports', async () => {
    const result = await build({
      entryPoints: ['sdk/webhooks/web.ts'],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]!.text;
    expect(code).not.toMatch(/from\s*["']node:/);
    expect(code).not.toMatch(/require\(["']node:/);
  });

  it('verifies what the node signer signed', async () => {
    const body = JSON.stringify({ event: 'stock.out', at: '2026-11-21T08:00:00.000Z', data: { number: 1001 }, delivery: 'dlv_abc', attempt: 1 });
    const signed = signWebhook(body, 'whsec_test');
    const event = await verifyWebhookAsync(signed.body, signed.headers, 'whsec_test');
    expect(event.event).toBe('stock.out');
  });
});
