import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  computeSignature,
  computeSignatureAsync,
  signWebhook,
  verifyWebhook,
  verifyWebhookAsync,
  WEBHOOK_HEADERS,
  WebhookVerificationError,
  type WebhookHeaders,
  type WebhookSecret,
  type VerifyWebhookOptions,
  type WebhookVerificationReason,
} from '../../sdk/webhooks/index.ts';

/*
 * Signature vectors. Each expected hex was computed outside this code with openssl, exactly:
 *
 *   printf '%s' "<timestamp>.<body>" | openssl dgst -sha256 -hmac '<secret>'
 *
 * (bash, UTF-8 locale; the body and secret strings are byte-for-byte the literals below).
 */
const VECTORS = [
  {
    // printf '%s' '1700000000.{"event":"order.paid",...}' | openssl dgst -sha256 -hmac 'whsec_test_secret'
    name: 'order.paid, ASCII',
    secret: 'whsec_test_secret',
    timestamp: 1700000000,
    body: '{"event":"order.paid","data":{"order":"ord_abc123","number":42,"status":"awaiting_delivery","slaMinutes":30},"at":"2023-11-14T22:13:20.000Z","delivery":"dlv_0001","attempt":1}',
    hex: '68fe161ad2a2860f2c02ea5a4a20319f16bb593f1dba7e50f01cb54da6c47516',
  },
  {
    // printf '%s' '1704164645.{"event":"order.message",...}' | openssl dgst -sha256 -hmac 'sekret-Ω-2'
    name: 'order.message, non-ASCII body and secret',
    secret: 'sekret-Ω-2',
    timestamp: 1704164645,
    body: '{"event":"order.message","data":{"order":"ord_x9","number":7,"status":"delivered","message":{"id":"msg_1","text":"Привет, код не работает — ключ ✓","at":"2024-01-02T03:04:05.678Z"}},"at":"2024-01-02T03:04:05.678Z","delivery":"dlv_u1","attempt":3,"test":true}',
    hex: '77c4a6647325d1c2f5e89a270b5a6385a83b7c330f1d33a052a01dbd91b9998a',
  },
  {
    // printf '%s' '1717200000.{"event":"stock.out",...}' | openssl dgst -sha256 -hmac 'whsec_new'
    name: 'stock.out, new secret',
    secret: 'whsec_new',
    timestamp: 1717200000,
    body: '{"event":"stock.out","data":{"number":5},"at":"2024-06-01T00:00:00.000Z","delivery":"dlv_s","attempt":2}',
    hex: 'ddb8d7df788e4f462327eb5f66fd107c10439d96e3bbcde61ae3d39f2c3cb15a',
  },
  {
    // printf '%s' '1717200000.{"event":"stock.out",...}' | openssl dgst -sha256 -hmac 'whsec_old'
    name: 'stock.out, old secret',
    secret: 'whsec_old',
    timestamp: 1717200000,
    body: '{"event":"stock.out","data":{"number":5},"at":"2024-06-01T00:00:00.000Z","delivery":"dlv_s","attempt":2}',
    hex: '4b589aa84ca9cd9d3742800d6b11fcdf3fc353195e5d63c8c1e3d159dc43a988',
  },
  {
    // printf '%s' '1700000000.' | openssl dgst -sha256 -hmac 'k'
    name: 'empty body',
    secret: 'k',
    timestamp: 1700000000,
    body: '',
    hex: '5c2999a43333a6877f49c8003f235c4f6de40f85b1b7414b70bd470a8db53d97',
  },
] as const;

const [PAID, MESSAGE, STOCK_NEW, STOCK_OLD] = VECTORS;

function headersFor(v: { timestamp: number; hex: string }): Record<string, string> {
  return {
    [WEBHOOK_HEADERS.timestamp]: String(v.timestamp),
    [WEBHOOK_HEADERS.signature]: `sha256=${v.hex}`,
  };
}
const at = (seconds: number) => ({ now: () => seconds * 1000 });

type Outcome = { ok: true; event: unknown } | { ok: false; reason: WebhookVerificationReason; header?: string };

function runSync(body: unknown, headers: WebhookHeaders, secret: WebhookSecret, opts?: VerifyWebhookOptions): Outcome {
  try {
    return { ok: true, event: verifyWebhook(body as string, headers, secret, opts) };
  } catch (err) {
    if (!(err instanceof WebhookVerificationError)) throw err;
    return err.header === undefined ? { ok: false, reason: err.reason } : { ok: false, reason: err.reason, header: err.header };
  }
}
async function runAsync(
  body: unknown,
  headers: WebhookHeaders,
  secret: WebhookSecret,
  opts?: VerifyWebhookOptions,
): Promise<Outcome> {
  try {
    return { ok: true, event: await verifyWebhookAsync(body as string, headers, secret, opts) };
  } catch (err) {
    if (!(err instanceof WebhookVerificationError)) throw err;
    return err.header === undefined ? { ok: false, reason: err.reason } : { ok: false, reason: err.reason, header: err.header };
  }
}

function expectReason(fn: () => unknown, reason: WebhookVerificationReason): WebhookVerificationError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookVerificationError);
    const e = err as WebhookVerificationError;
    expect(e.reason).toBe(reason);
    expect(e.name).toBe('WebhookVerificationError');
    return e;
  }
  throw new Error(`expected a ${reason} error`);
}

describe('signature vectors (openssl)', () => {
  for (const v of VECTORS) {
    it(`${v.name}: computeSignature and computeSignatureAsync give the openssl value`, async () => {
      const expected = `sha256=${v.hex}`;
      expect(computeSignature(v.timestamp, v.body, v.secret)).toBe(expected);
      expect(computeSignature(String(v.timestamp), Buffer.from(v.body, 'utf8'), v.secret)).toBe(expected);
      expect(await computeSignatureAsync(v.timestamp, v.body, v.secret)).toBe(expected);
      expect(await computeSignatureAsync(v.timestamp, new TextEncoder().encode(v.body), v.secret)).toBe(expected);
    });
  }

  it('signWebhook with a fixed timestamp produces the vector', () => {
    const signed = signWebhook(PAID.body, PAID.secret, { timestamp: PAID.timestamp });
    expect(signed.body).toBe(PAID.body);
    expect(signed.headers[WEBHOOK_HEADERS.signature]).toBe(`sha256=${PAID.hex}`);
  });

  it('verifies every event vector, string / Buffer / Uint8Array body, sync and async', async () => {
    for (const v of [PAID, MESSAGE, STOCK_NEW, STOCK_OLD]) {
      const opts = at(v.timestamp);
      const expected = JSON.parse(v.body) as unknown;
      for (const body of [v.body, Buffer.from(v.body), new TextEncoder().encode(v.body)]) {
        expect(verifyWebhook(body, headersFor(v), v.secret, opts)).toEqual(expected);
        expect(await verifyWebhookAsync(body, headersFor(v), v.secret, opts)).toEqual(expected);
      }
    }
  });
});

describe('sign → verify round trip', () => {
  const event = {
    event: 'order.new',
    data: { order: 'ord_rt1', number: 11, status: 'awaiting_payment' },
    at: '2025-03-04T05:06:07.089Z',
    delivery: 'dlv_rt1',
    attempt: 2,
  } as const;

  it('signs an event object with all five headers taken from it', () => {
    const now = Date.UTC(2025, 2, 4, 5, 6, 7, 900);
    const signed = signWebhook(event, 'whsec_rt', { now: () => now });
    expect(signed.body).toBe(JSON.stringify(event));
    expect(signed.headers).toEqual({
      'x-service-event': 'order.new',
      'x-service-delivery': 'dlv_rt1',
      'x-service-timestamp': String(Math.floor(now / 1000)),
      'x-service-attempt': '2',
      'x-service-signature': computeSignature(Math.floor(now / 1000), signed.body, 'whsec_rt'),
    });
    const verified = verifyWebhook(signed.body, signed.headers, 'whsec_rt', { now: new Date(now) });
    expect(verified).toEqual(event);
    if (verified.event === 'order.new') expect(verified.data.number).toBe(11);
  });

  it('options override the headers taken from the body; a string body is parsed for them', () => {
    const signed = signWebhook(JSON.stringify(event), 's', { timestamp: 1, attempt: 5, delivery: 'dlv_other' });
    expect(signed.headers['x-service-event']).toBe('order.new');
    expect(signed.headers['x-service-attempt']).toBe('5');
    expect(signed.headers['x-service-delivery']).toBe('dlv_other');
    expect(signed.headers['x-service-timestamp']).toBe('1');
  });

  it('defaults to the current time and verifies with the default clock', async () => {
    const signed = signWebhook(event, 'whsec_now');
    expect(Math.abs(Number(signed.headers['x-service-timestamp']) - Date.now() / 1000)).toBeLessThan(2);
    expect(verifyWebhook(signed.body, signed.headers, 'whsec_now')).toEqual(event);
    expect(await verifyWebhookAsync(signed.body, signed.headers, 'whsec_now')).toEqual(event);
  });

  it('rejects bad signer input', () => {
    expect(() => signWebhook(event, '')).toThrow(TypeError);
    expect(() => signWebhook(event, 's', { timestamp: 1.5 })).toThrow(TypeError);
    expect(() => signWebhook(event, 's', { attempt: 0 })).toThrow(TypeError);
  });
});

describe('failure reasons', () => {
  const v = PAID;
  const opts = at(v.timestamp);

  it('missing_header names the header', () => {
    const noSig = expectReason(
      () => verifyWebhook(v.body, { [WEBHOOK_HEADERS.timestamp]: String(v.timestamp) }, v.secret, opts),
      'missing_header',
    );
    expect(noSig.header).toBe('x-service-signature');
    expect(noSig.message).toContain('x-service-signature');
    const noTs = expectReason(
      () => verifyWebhook(v.body, { [WEBHOOK_HEADERS.signature]: `sha256=${v.hex}` }, v.secret, opts),
      'missing_header',
    );
    expect(noTs.header).toBe('x-service-timestamp');
    const empty = expectReason(
      () => verifyWebhook(v.body, { ...headersFor(v), 'x-service-signature': '' }, v.secret, opts),
      'missing_header',
    );
    expect(empty.header).toBe('x-service-signature');
    expectReason(() => verifyWebhook(v.body, {}, v.secret, opts), 'missing_header');
  });

  it('malformed_signature', () => {
    for (const sig of [v.hex, `sha1=${v.hex}`, `sha256:${v.hex}`, 'sha256=', 'sha256=xyz0', 'sha256=abc', `sha256=${v.hex} x`]) {
      const e = expectReason(
        () => verifyWebhook(v.body, { ...headersFor(v), 'x-service-signature': sig }, v.secret, opts),
        'malformed_signature',
      );
      expect(e.header).toBe('x-service-signature');
    }
  });

  it('malformed_timestamp', () => {
    for (const ts of ['abc', '-1700000000', '1700000000.5', '1e9', '0x10', '2023-11-14T22:13:20Z']) {
      const e = expectReason(
        () => verifyWebhook(v.body, { ...headersFor(v), 'x-service-timestamp': ts }, v.secret, opts),
        'malformed_timestamp',
      );
      expect(e.header).toBe('x-service-timestamp');
    }
  });

  it('mismatch: wrong secret, changed body, changed timestamp, short or long signature', () => {
    const e = expectReason(() => verifyWebhook(v.body, headersFor(v), 'wrong', opts), 'mismatch');
    expect(e.message).toMatch(/raw request body/);
    expect(e.message).toMatch(/secret/);
    expectReason(() => verifyWebhook(v.body.replace('42', '43'), headersFor(v), v.secret, opts), 'mismatch');
    expectReason(
      () => verifyWebhook(v.body, { ...headersFor(v), 'x-service-timestamp': String(v.timestamp + 1) }, v.secret, at(v.timestamp + 1)),
      'mismatch',
    );
    for (const sig of ['sha256=abcd', `sha256=${v.hex}00`, `sha256=${v.hex.slice(0, 62)}`]) {
      expectReason(() => verifyWebhook(v.body, { ...headersFor(v), 'x-service-signature': sig }, v.secret, opts), 'mismatch');
    }
  });

  it('mismatch: a re-serialised body (whitespace changed) does not verify', () => {
    const reserialised = JSON.stringify(JSON.parse(v.body), null, 2);
    expect(JSON.parse(reserialised)).toEqual(JSON.parse(v.body));
    expectReason(() => verifyWebhook(reserialised, headersFor(v), v.secret, opts), 'mismatch');
    expectReason(() => verifyWebhook(`${v.body}\n`, headersFor(v), v.secret, opts), 'mismatch');
  });

  it('body_not_raw: an already-parsed object (or nothing) instead of the raw body', () => {
    const parsed = JSON.parse(v.body) as unknown;
    const e = expectReason(() => verifyWebhook(parsed as string, headersFor(v), v.secret, opts), 'body_not_raw');
    expect(e.message).toMatch(/raw/);
    expect(e.message).toMatch(/parser/);
    expectReason(() => verifyWebhook(undefined as unknown as string, headersFor(v), v.secret, opts), 'body_not_raw');
    expectReason(() => verifyWebhook(null as unknown as string, headersFor(v), v.secret, opts), 'body_not_raw');
    // Checked before anything else: even with no headers at all.
    expectReason(() => verifyWebhook(parsed as string, {}, v.secret, opts), 'body_not_raw');
  });

  it('malformed_body: signed, but not JSON or not a known event', () => {
    const cases = [
      'not json',
      '{"event":"order.paid"',
      '[]',
      '{"event":"order.refunded","data":{},"at":"2024-01-01T00:00:00.000Z","delivery":"dlv_1","attempt":1}',
      '{"event":"order.paid","data":{"order":"ord_1","number":1,"status":"awaiting_delivery"},"at":"2024-01-01T00:00:00.000Z","delivery":"dlv_1","attempt":1}',
      '{"event":"stock.out","data":{"number":5},"at":"2024-01-01","delivery":"dlv_1","attempt":1}',
    ];
    for (const body of cases) {
      const signed = signWebhook(body, 's', { timestamp: 1000 });
      const e = expectReason(() => verifyWebhook(signed.body, signed.headers, 's', at(1000)), 'malformed_body');
      expect(e.message).toMatch(/signature is valid/i);
      expect(e.cause).toBeDefined();
    }
    // Invalid UTF-8 bytes.
    const bytes = Uint8Array.from([0x7b, 0xff, 0x7d]);
    const headers = { 'x-service-timestamp': '1000', 'x-service-signature': computeSignature(1000, bytes, 's') };
    expectReason(() => verifyWebhook(bytes, headers, 's', at(1000)), 'malformed_body');
  });

  it('bad secrets are a programming error (TypeError), not a verification failure', () => {
    expect(() => verifyWebhook(v.body, headersFor(v), '', opts)).toThrow(TypeError);
    expect(() => verifyWebhook(v.body, headersFor(v), [], opts)).toThrow(TypeError);
    expect(() => verifyWebhook(v.body, headersFor(v), ['ok', ''], opts)).toThrow(TypeError);
  });
});

describe('timestamp tolerance', () => {
  const v = PAID;
  const run = (nowSeconds: number, extra: VerifyWebhookOptions = {}) =>
    runSync(v.body, headersFor(v), v.secret, { now: () => nowSeconds * 1000, ...extra });

  it('accepts 299 s either way and rejects 300 s either way (the exact boundary)', () => {
    expect(run(v.timestamp).ok).toBe(true);
    expect(run(v.timestamp + 299).ok).toBe(true);
    expect(run(v.timestamp + 299.999).ok).toBe(true);
    expect(run(v.timestamp - 299).ok).toBe(true);
    expect(run(v.timestamp + 300)).toEqual({ ok: false, reason: 'stale_timestamp' });
    expect(run(v.timestamp - 300)).toEqual({ ok: false, reason: 'stale_timestamp' });
    expect(run(v.timestamp + 86400)).toEqual({ ok: false, reason: 'stale_timestamp' });
    expect(run(v.timestamp - 86400)).toEqual({ ok: false, reason: 'stale_timestamp' });
  });

  it('says which direction and by how much', () => {
    const old = expectReason(() => verifyWebhook(v.body, headersFor(v), v.secret, at(v.timestamp + 400)), 'stale_timestamp');
    expect(old.message).toMatch(/400 s in the past/);
    expect(old.skewSeconds).toBe(-400);
    const future = expectReason(() => verifyWebhook(v.body, headersFor(v), v.secret, at(v.timestamp - 400)), 'stale_timestamp');
    expect(future.message).toMatch(/400 s in the future/);
    expect(future.skewSeconds).toBe(400);
  });

  it('a clock before 1971 (seconds given as milliseconds) is named as such, by message and as data (issue 37, item 6)', () => {
    for (const now of [v.timestamp, new Date(v.timestamp), () => v.timestamp]) {
      const err = expectReason(() => verifyWebhook(v.body, headersFor(v), v.secret, { now }), 'stale_timestamp');
      expect(err.hint).toBe('now_in_seconds');
      expect(err.message).toContain(`options.now ${v.timestamp} looks like seconds`);
    }
    // A real clock that is merely late gets no such hint.
    expect(expectReason(() => verifyWebhook(v.body, headersFor(v), v.secret, at(v.timestamp + 400)), 'stale_timestamp').hint).toBeUndefined();
  });

  it('a custom tolerance', () => {
    expect(run(v.timestamp + 9, { toleranceSeconds: 10 }).ok).toBe(true);
    expect(run(v.timestamp + 10, { toleranceSeconds: 10 })).toEqual({ ok: false, reason: 'stale_timestamp' });
    expect(run(v.timestamp + 1000, { toleranceSeconds: 3600 }).ok).toBe(true);
    expect(() => run(v.timestamp, { toleranceSeconds: 0 })).toThrow(TypeError);
  });

  it('the clock may be a function, a Date or milliseconds', () => {
    expect(verifyWebhook(v.body, headersFor(v), v.secret, { now: v.timestamp * 1000 })).toBeDefined();
    expect(verifyWebhook(v.body, headersFor(v), v.secret, { now: new Date(v.timestamp * 1000) })).toBeDefined();
    expect(verifyWebhook(v.body, headersFor(v), v.secret, { now: () => new Date(v.timestamp * 1000) })).toBeDefined();
  });

  it('a bad signature with an old timestamp is a mismatch, not stale (the signature is checked first)', () => {
    expectReason(() => verifyWebhook(v.body, headersFor(v), 'wrong', at(v.timestamp + 10_000)), 'mismatch');
  });
});

describe('headers', () => {
  const v = PAID;
  const opts = at(v.timestamp);

  it('header names in any case', () => {
    for (const transform of [(s: string) => s.toUpperCase(), (s: string) => s.replace(/(^|-)x|(-)s/g, (m) => m.toUpperCase())]) {
      const headers = Object.fromEntries(Object.entries(headersFor(v)).map(([k, val]) => [transform(k), val]));
      expect(Object.keys(headers)).not.toContain('x-service-signature');
      expect(verifyWebhook(v.body, headers, v.secret, opts)).toEqual(JSON.parse(v.body));
    }
    expect(verifyWebhook(v.body, { 'X-Service-Timestamp': String(v.timestamp), 'x-SERVICE-signature': `sha256=${v.hex}` }, v.secret, opts)).toBeDefined();
  });

  it('uppercase hex in the signature is accepted', () => {
    expect(verifyWebhook(v.body, { ...headersFor(v), 'x-service-signature': `sha256=${v.hex.toUpperCase()}` }, v.secret, opts)).toBeDefined();
  });

  it('node-style values: arrays and undefined', () => {
    const headers: Record<string, string | string[] | undefined> = {
      'x-service-timestamp': [String(v.timestamp)],
      'x-service-signature': [`sha256=${v.hex}`],
      'x-service-event': undefined,
    };
    expect(verifyWebhook(v.body, headers, v.secret, opts)).toBeDefined();
    expectReason(() => verifyWebhook(v.body, { ...headers, 'x-service-signature': [] }, v.secret, opts), 'missing_header');
  });

  it("Node's IncomingHttpHeaders type is accepted as is", () => {
    const incoming: IncomingHttpHeaders = { 'content-type': 'application/json', ...headersFor(v), 'set-cookie': ['a=b'] };
    expect(verifyWebhook(Buffer.from(v.body), incoming, v.secret, opts)).toBeDefined();
  });

  it('a Fetch Headers object', async () => {
    const headers = new Headers(headersFor(v));
    expect(verifyWebhook(v.body, headers, v.secret, opts)).toEqual(JSON.parse(v.body));
    expect(await verifyWebhookAsync(v.body, headers, v.secret, opts)).toEqual(JSON.parse(v.body));
    const missing = new Headers({ 'x-service-timestamp': String(v.timestamp) });
    expect(await runAsync(v.body, missing, v.secret, opts)).toEqual({ ok: false, reason: 'missing_header', header: 'x-service-signature' });
  });

  it('a Request built by signWebhook verifies from request.text()', async () => {
    const signed = signWebhook(JSON.parse(MESSAGE.body) as object, 'edge-secret', { timestamp: 2_000_000_000 });
    const request = new Request('https://receiver.example/hook', { method: 'POST', body: signed.body, headers: signed.headers });
    const event = await verifyWebhookAsync(await request.text(), request.headers, 'edge-secret', at(2_000_000_000));
    expect(event.event).toBe('order.message');
  });
});

describe('secret rotation', () => {
  const v = STOCK_NEW; // signed with whsec_new
  const opts = at(v.timestamp);

  it('accepts when any of several secrets matches, in any order', async () => {
    for (const secrets of [['whsec_old', 'whsec_new'], ['whsec_new', 'whsec_old'], ['whsec_new']]) {
      expect(verifyWebhook(v.body, headersFor(v), secrets, opts)).toEqual(JSON.parse(v.body));
      expect(await verifyWebhookAsync(v.body, headersFor(v), secrets, opts)).toEqual(JSON.parse(v.body));
    }
    // The same delivery signed with the old secret also passes with both configured.
    expect(verifyWebhook(STOCK_OLD.body, headersFor(STOCK_OLD), ['whsec_old', 'whsec_new'], opts)).toBeDefined();
  });

  it('rejects when none matches', async () => {
    expect(runSync(v.body, headersFor(v), ['a', 'b', 'whsec_old'], opts)).toEqual({ ok: false, reason: 'mismatch' });
    expect(await runAsync(v.body, headersFor(v), ['a', 'b', 'whsec_old'], opts)).toEqual({ ok: false, reason: 'mismatch' });
  });
});

describe('the async (Web Crypto) twin', () => {
  it('agrees with the sync verifier on every vector and every failure case', async () => {
    const v = PAID;
    const h = headersFor(v);
    const cases: Array<[string, unknown, WebhookHeaders, WebhookSecret, VerifyWebhookOptions]> = [];
    for (const vec of VECTORS) {
      for (const secret of [vec.secret, 'wrong', ['wrong', vec.secret]]) {
        for (const dt of [0, 299, 300, -299, -300]) {
          cases.push([`${vec.name} ${String(secret)} ${dt}`, vec.body, headersFor(vec), secret, at(vec.timestamp + dt)]);
        }
      }
    }
    cases.push(
      ['object body', JSON.parse(v.body), h, v.secret, at(v.timestamp)],
      ['no signature', v.body, { 'x-service-timestamp': '1' }, v.secret, at(v.timestamp)],
      ['no timestamp', v.body, { 'x-service-signature': `sha256=${v.hex}` }, v.secret, at(v.timestamp)],
      ['bad sig', v.body, { ...h, 'x-service-signature': 'md5=00' }, v.secret, at(v.timestamp)],
      ['short sig', v.body, { ...h, 'x-service-signature': 'sha256=00' }, v.secret, at(v.timestamp)],
      ['bad ts', v.body, { ...h, 'x-service-timestamp': 'x' }, v.secret, at(v.timestamp)],
      ['reserialised', JSON.stringify(JSON.parse(v.body), null, 1), h, v.secret, at(v.timestamp)],
      ['Buffer', Buffer.from(v.body), h, v.secret, at(v.timestamp)],
      ['Headers', v.body, new Headers(h), v.secret, at(v.timestamp)],
    );
    const junk = signWebhook('{"event":"nope"}', 'k', { timestamp: 5 });
    cases.push(['unknown event', junk.body, junk.headers, 'k', at(5)]);

    let failures = 0;
    for (const [name, body, headers, secret, opts] of cases) {
      const sync = runSync(body, headers, secret, opts);
      const web = await runAsync(body, headers, secret, opts);
      expect(web, name).toEqual(sync);
      if (!sync.ok) failures++;
    }
    expect(failures).toBeGreaterThan(10);
  });

  it('verify-web.ts and what it imports use no node: modules', () => {
    for (const file of ['verify-web.ts', 'errors.ts']) {
      const source = readFileSync(new URL(`../../sdk/webhooks/${file}`, import.meta.url), 'utf8');
      expect(source, file).not.toMatch(/from ['"]node:|require\(/);
    }
    const events = readFileSync(new URL('../../sdk/contract/events.ts', import.meta.url), 'utf8');
    expect(events).not.toMatch(/from ['"]node:/);
  });
});
