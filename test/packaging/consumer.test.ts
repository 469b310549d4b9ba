/**
 * The package as an application sees it: a separate TypeScript project (its own strict options,
 * no access to this project's sources or tsconfig) imports every entry by package name, type-checks
 * against the shipped declarations, and runs. Needs `dist/` (npm test builds before testing).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
let dir: string;

const consumer = `
import { SellerClient, apiOperations, RejectedError, isRejected, buildCard, validateInn, type Order, type Tolerant } from 'service-seller';
import { verifyWebhook, signWebhook, WebhookVerificationError } from 'service-seller/webhooks';
import { verifyWebhookAsync } from 'service-seller/webhooks/web';
import { buildApp, startServer } from 'service-seller/server';
import { runDoctor, compareAnswer, type DoctorReport } from 'service-seller/doctor';
import { defineAutopilot, runAutopilot, type AutopilotEvent } from 'service-seller/autopilot';

const client = new SellerClient({ apiKey: 'service_test_x', baseUrl: 'http://127.0.0.1:1' });
export async function typed(): Promise<string> {
  const page = await client.orders.list({ needsAction: true, limit: 10 });
  const first: Tolerant<Order> | undefined = page.items[0];
  const extra: unknown = first?.['fieldOfTomorrow'];
  void extra;
  const answer = await client.orders.deliver('ord_x', { nextChargeDay: '2026-12-01' });
  const rejected: string | null = answer.noteRejected;
  try {
    await client.listings.setTest(1001, { isTest: false });
  } catch (err) {
    if (isRejected(err, 'listings.setTest')) {
      const kind: 'not_found' | 'test_to_real_needs_papers' = err.refusal.kind;
      return kind;
    }
    if (err instanceof RejectedError) return err.refusal.kind;
  }
  // @ts-expect-error a card number is a number
  await client.listings.get('1001');
  // @ts-expect-error deliver takes no such field
  await client.orders.deliver('ord_x', { when: 'now' });
  return first?.status ?? rejected ?? '';
}
export async function doctor(): Promise<number> {
  const report: DoctorReport = await runDoctor(client, { limit: 1 });
  return report.differences.length + compareAnswer(apiOperations['hooks.get'], 200, {}).length;
}
export const checks = [typeof runDoctor, typeof buildCard, validateInn('7707083893', 'company').ok, typeof verifyWebhookAsync, typeof buildApp, typeof startServer];
export const autopilot = defineAutopilot({ deliver: [{ match: { productType: 'subscription' }, action: { command: './activate.sh' } }] });
export const runs: typeof runAutopilot = runAutopilot;
export const onEvent = (event: AutopilotEvent): string => event.message;
// A product type our enum does not list (the marketplace's own) is accepted.
defineAutopilot({ deliver: [{ match: { productType: 'gift_card' }, action: { command: 'x' } }] });
export const signed = signWebhook('{}', 'whsec_x');
export function verify(raw: string, headers: Record<string, string>) {
  try {
    return verifyWebhook(raw, headers, 'whsec_x').event;
  } catch (err) {
    return err instanceof WebhookVerificationError ? err.reason : 'other';
  }
}
`;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'seller-consumer-'));
  mkdirSync(path.join(dir, 'node_modules'));
  symlinkSync(root, path.join(dir, 'node_modules', 'service-seller'), 'dir');
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'consumer', type: 'module', private: true }));
  writeFileSync(path.join(dir, 'app.ts'), consumer);
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        exactOptionalPropertyTypes: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
        typeRoots: [path.join(root, 'node_modules/@types')],
      },
      files: ['app.ts'],
    }),
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the package as an application imports it', () => {
  it('type-checks against the shipped declarations under strict options of its own', () => {
    const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
    let output = '';
    try {
      execFileSync(process.execPath, [tsc, '-p', path.join(dir, 'tsconfig.json')], { encoding: 'utf8' });
    } catch (err) {
      output = String((err as { stdout?: string }).stdout ?? err);
    }
    expect(output).toBe('');
  }, 60_000);

  it('imports every entry at run time by package name', () => {
    const script = `
      const sdk = await import('service-seller');
      const hooks = await import('service-seller/webhooks');
      const web = await import('service-seller/webhooks/web');
      const server = await import('service-seller/server');
      const doctor = await import('service-seller/doctor');
      const autopilot = await import('service-seller/autopilot');
      console.log([typeof sdk.SellerClient, typeof hooks.verifyWebhook, typeof web.verifyWebhookAsync, typeof server.startServer, typeof doctor.runDoctor, typeof autopilot.runAutopilot].join(','));
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8' });
    expect(out.trim()).toBe('function,function,function,function,function,function');
  }, 60_000);
});

describe('the package’s commands, as npm links them', () => {
  it('run each bin of package.json through a link in node_modules/.bin, by its shebang', () => {
    const bins = Object.entries(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).bin as Record<string, string>);
    expect(bins.map(([name]) => name).sort()).toEqual(['seller', 'seller-server']);
    const binDir = path.join(dir, 'node_modules', '.bin');
    mkdirSync(binDir, { recursive: true });
    for (const [name, file] of bins) {
      const link = path.join(binDir, name);
      symlinkSync(path.join('..', 'service-seller', file), link);
      const out = execFileSync(link, ['--help'], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH, NO_COLOR: '1' } });
      expect(out, name).toMatch(/^usage: /im);
    }
    const version = execFileSync(path.join(binDir, 'seller'), ['--version'], { cwd: dir, encoding: 'utf8' });
    expect(version.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  }, 60_000);
});

describe('the public surface of the SDK entry', () => {
  it('exposes the contract’s schemas and table, not the helpers that build it', async () => {
    const sdk: Record<string, unknown> = await import('../../sdk/index.ts');
    for (const name of ['apiOperations', 'Order', 'Card', 'EVENT_KINDS', 'ERROR_STATUS', 'SellerClient', 'validateInn']) {
      expect(sdk, name).toHaveProperty(name);
    }
    for (const name of ['op', 'page', 'pageQuery', 'intParam', 'boolParam', 'prefixedId', 'fillPath', 'sandboxOperations']) {
      expect(sdk, name).not.toHaveProperty(name);
    }
  });
});
