/**
 * Webhooks from the terminal (issue 32, item 5):
 * - `seller hooks send URL --event KIND [--data JSON]` builds a whole body from the contract
 *   (delivery, attempt, `at` filled) that the SDK's verifier accepts;
 * - `--file` with a hand-written body lacking envelope fields (`event`, `at`, `data` as the spec
 *   shows it) names every missing field at once, with a whole example, and still sends the bytes;
 * - `seller hooks example KIND` prints a valid body of every event kind (both languages);
 * - `WebhookVerificationError` has a `.code`; a secret with whitespace around it gets a hint.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_KINDS } from '../../sdk/contract/enums.ts';
import { WebhookEvent } from '../../sdk/contract/events.ts';
import { computeSignature, verifyWebhook, WebhookVerificationError } from '../../sdk/webhooks/index.ts';
import { startReceiver, type Receiver, type Received } from '../helpers/receiver.ts';
import { bufferIO, run } from './helpers.ts';

const SECRET = `whsec_${'s'.repeat(32)}`;

let receiver: Receiver;
let url: string;
let got: Received[];
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hooks-send-whole-'));
  writeFileSync(join(dir, 'secret'), `${SECRET}\n`);
  receiver = await startReceiver(() => SECRET);
  ({ url, got } = receiver);
});
afterAll(async () => {
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = { SERVICE_WEBHOOK_SECRET: SECRET };

describe('seller hooks send --event KIND [--data JSON]', () => {
  it.each(EVENT_KINDS.map((k) => [k]))('%s: a whole body from the contract, verified by the SDK (exit 0)', async (kind) => {
    got.length = 0;
    const result = await run(['hooks', 'send', url, '--event', kind], bufferIO({ env }));
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(got).toHaveLength(1);
    expect(got[0]!.verified, got[0]!.why).toBe(true);
    const body = JSON.parse(got[0]!.body);
    expect(WebhookEvent.safeParse(body).success).toBe(true);
    expect(body).toMatchObject({ event: kind, attempt: 1 });
    expect(body.delivery).toMatch(/^dlv_[A-Za-z0-9]{24}$/);
    expect(Math.abs(Date.parse(body.at) - Date.now())).toBeLessThan(3_600_000);
  });

  it('--data sets fields of data over the example', async () => {
    got.length = 0;
    const result = await run(['hooks', 'send', url, '--event', 'order.paid', '--data', '{"number": 4242, "slaMinutes": 60}', '--secret-file', join(dir, 'secret')], bufferIO());
    expect(result.code, result.err).toBe(0);
    expect(JSON.parse(got[0]!.body).data).toMatchObject({ number: 4242, slaMinutes: 60, status: expect.any(String), order: expect.stringMatching(/^ord_/) });
  });

  it('--data that is not a JSON object, --data with --file, neither --file nor --event: usage errors (exit 2)', async () => {
    expect((await run(['hooks', 'send', url, '--event', 'order.paid', '--data', '[1]'], bufferIO({ env }))).code).toBe(2);
    expect((await run(['hooks', 'send', url, '--file', '-', '--data', '{}'], bufferIO({ env, stdin: '{}' }))).code).toBe(2);
    const none = await run(['hooks', 'send', url], bufferIO({ env }));
    expect(none.code).toBe(2);
    expect(none.err).toContain('--event order.paid');
  });
});

describe('seller hooks send --file with a hand-written body', () => {
  it('the spec’s body (event, at, data): every missing envelope field named at once, with a whole example; the bytes are sent', async () => {
    got.length = 0;
    const spec = '{"event":"order.paid","at":"2026-11-21T08:13:39.000Z","data":{"order":"ord_1","number":1001,"status":"awaiting_delivery","slaMinutes":30}}';
    writeFileSync(join(dir, 'spec.json'), spec);
    const result = await run(['hooks', 'send', url, '--file', join(dir, 'spec.json')], bufferIO({ env }));
    expect(result.err).toMatch(/lacks the envelope fields delivery, attempt:/);
    const example = JSON.parse(/a whole body \(seller hooks example KIND prints one\): (\{.*\})/.exec(result.err)![1]!);
    expect(WebhookEvent.safeParse(example).success).toBe(true);
    expect(example.data).toMatchObject({ number: 1001, status: 'awaiting_delivery' });
    expect(got[0]!.body).toBe(spec); // byte for byte
    expect(got[0]!.verified).toBe(false); // the control: the verifier refuses what lacks them
    expect(result.code).toBe(1);
  });

  it('in Russian, one missing field in the singular', async () => {
    const body = '{"event":"order.new","delivery":"dlv_x1","at":"2026-11-21T08:13:39.000Z","data":{"order":"ord_1","number":1,"status":"awaiting_payment"}}';
    const result = await run(['hooks', 'send', url, '--file', '-'], bufferIO({ env: { ...env, LANG: 'ru_RU.UTF-8' }, stdin: body }));
    expect(result.err).toContain('в теле нет поля конверта attempt');
  });

  it('a whole body is sent without a word on stderr', async () => {
    const body = '{"event":"stock.out","delivery":"dlv_x2","attempt":1,"at":"2026-11-21T08:13:39.000Z","data":{"number":1001}}';
    const result = await run(['hooks', 'send', url, '--file', '-'], bufferIO({ env, stdin: body }));
    expect(result.err).not.toMatch(/lacks/);
  });
});

describe('seller hooks example KIND', () => {
  it.each(EVENT_KINDS.map((k) => [k]))('%s: a body the contract accepts', async (kind) => {
    const result = await run(['hooks', 'example', kind], bufferIO());
    expect(result.code, result.err).toBe(0);
    const body = JSON.parse(result.out);
    expect(WebhookEvent.safeParse(body).success, result.out).toBe(true);
    expect(body.event).toBe(kind);
    // …and the SDK's verifier takes it once signed
    const ts = String(Math.floor(Date.now() / 1000));
    expect(verifyWebhook(result.out, { 'x-service-timestamp': ts, 'x-service-signature': computeSignature(ts, result.out, SECRET) }, SECRET).event).toBe(kind);
  });

  it('an unknown kind is a usage error naming the known ones', async () => {
    const result = await run(['hooks', 'example', 'payout.sent'], bufferIO());
    expect(result.code).toBe(2);
    expect(result.err).toContain('order.paid');
  });
});

describe('WebhookVerificationError', () => {
  const body = '{"event":"stock.out","delivery":"dlv_x3","attempt":1,"at":"2026-11-21T08:13:39.000Z","data":{"number":1001}}';
  const ts = String(Math.floor(Date.now() / 1000));
  const headers = { 'x-service-timestamp': ts, 'x-service-signature': computeSignature(ts, body, SECRET) };
  const fail = (secret: string) => {
    try {
      verifyWebhook(body, headers, secret);
    } catch (err) {
      return err as WebhookVerificationError;
    }
    throw new Error('verified');
  };

  it('has a .code like the SDK’s other errors', () => {
    const err = fail(`whsec_${'x'.repeat(32)}`);
    expect(err.code).toBe('mismatch');
    expect(err.code).toBe(err.reason);
    expect(err.hint).toBeUndefined();
  });

  it.each([`${SECRET}\n`, ` ${SECRET}`, `${SECRET}\r\n`])('a secret with whitespace around it gets a hint: %j', (secret) => {
    const err = fail(secret);
    expect(err.code).toBe('mismatch');
    // The hint is data (issue 37, item 9): a caller words it without reading the English message.
    expect(err.hint).toBe('secret_whitespace');
  });
});
