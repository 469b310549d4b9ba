import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  detailMessage,
  ERROR_STATUS,
  errorFromResponse,
  IdempotencyMismatchError,
  isRejected,
  isSellerError,
  NotFoundError,
  MethodNotAllowedError,
  parseRetryAfter,
  PermissionError,
  RateLimitError,
  RejectedError,
  SellerClient,
  SellerError,
  ServerError,
  type ErrorCode,
} from '../../sdk/index.ts';

const BASE = 'http://seller.test';
const KEY = 'service_live_SECRETsecretSECRETsecretSECRETsecret1234';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const client = new SellerClient({ apiKey: KEY, baseUrl: BASE, maxRetries: 0 });

/** The error a call to orders.deliver throws when the server answers `body` with `status`. */
async function deliverFailing(status: number, body: unknown, headers: Record<string, string> = {}): Promise<SellerError> {
  server.use(
    http.post(`${BASE}/api/v1/orders/:id/deliver`, () =>
      HttpResponse.json(body as object, { status, headers: { 'x-request-id': 'req_123', ...headers } }),
    ),
  );
  const err = await client.orders.deliver('ord_1', {}).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SellerError);
  return err as SellerError;
}

const CLASS_OF: Record<ErrorCode, new (...args: never[]) => SellerError> = {
  bad_request: BadRequestError,
  idempotency_key_required: BadRequestError,
  no_key: AuthenticationError,
  bad_key: AuthenticationError,
  revoked: AuthenticationError,
  not_seller: PermissionError,
  seller_blocked: PermissionError,
  scope: PermissionError,
  not_found: NotFoundError,
  method_not_allowed: MethodNotAllowedError,
  rejected: RejectedError,
  idempotency_mismatch: IdempotencyMismatchError,
  rate: RateLimitError,
  internal: ServerError,
  unavailable: ServerError,
};

describe('every error code maps to its class', () => {
  it.each(Object.entries(ERROR_STATUS) as [ErrorCode, number][])('%s (HTTP %i)', async (code, status) => {
    const body = code === 'rejected' ? { error: code, refusal: { kind: 'state_moved' } } : { error: code };
    const err = await deliverFailing(status, body);
    expect(err).toBeInstanceOf(CLASS_OF[code]);
    expect(err).toBeInstanceOf(Error);
    expect(err.code).toBe(code);
    expect(err.status).toBe(status);
    expect(err.requestId).toBe('req_123');
    expect(err.operation).toBe('orders.deliver');
    expect(err.body).toEqual(body);
    expect(err.name).toBe(CLASS_OF[code].name);
    expect(err.message).toMatch(new RegExp(`^${code}( \\(state_moved\\))?: .+ \\[orders\\.deliver, HTTP ${status}, request req_123\\]$`));
    expect(err.message).not.toContain(KEY);
  });
});

describe('details', () => {
  it('bad_request carries the detail in the message', async () => {
    const err = await deliverFailing(400, { error: 'bad_request', detail: 'nextChargeDay: a date YYYY-MM-DD' });
    expect(err.detail).toBe('nextChargeDay: a date YYYY-MM-DD');
    expect(err.message).toBe('bad_request: nextChargeDay: a date YYYY-MM-DD [orders.deliver, HTTP 400, request req_123]');
  });

  it("the contract's object detail: its data kept, its English message in the error's message", async () => {
    const detail = { message: 'body.priceRub: expected int', issues: [{ path: ['body', 'priceRub'], code: 'invalid_type', expected: 'int', message: 'expected int' }] };
    const err = await deliverFailing(400, { error: 'bad_request', detail });
    expect(err.detail).toEqual(detail);
    expect(err.message).toBe('bad_request: body.priceRub: expected int [orders.deliver, HTTP 400, request req_123]');
    expect(detailMessage(detail)).toBe('body.priceRub: expected int');
    expect(detailMessage('an older service says it in a sentence')).toBe('an older service says it in a sentence');
    expect(detailMessage(undefined)).toBeUndefined();
  });

  it('an object detail without a message is shown as JSON, shortened when long', async () => {
    const err = await deliverFailing(400, { error: 'bad_request', detail: { issues: ['x'.repeat(1000)] } });
    expect(err.detail).toEqual({ issues: ['x'.repeat(1000)] });
    expect(err.message.length).toBeLessThan(400);
    expect(err.message).toContain('{"issues":["xxx');
  });

  it('scope gives neededScope', async () => {
    const err = await deliverFailing(403, { error: 'scope', detail: { needed: 'orders' } });
    expect(err).toBeInstanceOf(PermissionError);
    expect((err as PermissionError).neededScope).toBe('orders');
    expect(err.message).toMatch(/^scope: the API key lacks the "orders" scope/);
  });

  it('rate gives retryAfterSeconds', async () => {
    const err = await deliverFailing(429, { error: 'rate' }, { 'retry-after': '12' });
    expect((err as RateLimitError).retryAfterSeconds).toBe(12);
    expect(err.message).toMatch(/^rate: rate limit exceeded; retry after 12 s \[/);
  });

  it('rejected gives the refusal, its kind in the message with field and reason', async () => {
    const err = await deliverFailing(409, {
      error: 'rejected',
      refusal: { kind: 'need_next_charge', field: 'nextChargeDay' },
    });
    expect(err).toBeInstanceOf(RejectedError);
    expect((err as RejectedError).refusal).toEqual({ kind: 'need_next_charge', field: 'nextChargeDay' });
    expect(err.message).toBe(
      'rejected (need_next_charge): a rule refused the call (field nextChargeDay) [orders.deliver, HTTP 409, request req_123]',
    );
  });

  it('isRejected narrows by operation', async () => {
    const err: unknown = await deliverFailing(409, { error: 'rejected', refusal: { kind: 'state_moved' } });
    expect(isRejected(err)).toBe(true);
    expect(isRejected(err, 'orders.deliver')).toBe(true);
    expect(isRejected(err, 'hooks.set')).toBe(false);
    expect(isRejected(new Error('x'))).toBe(false);
    if (isRejected(err, 'orders.deliver')) {
      const kind: 'not_found' | 'state_moved' | 'need_next_charge' = err.refusal.kind;
      expect(kind).toBe('state_moved');
    }
  });

  it('the API key never appears in a message, even when the server echoes it', async () => {
    const err = await deliverFailing(401, { error: 'bad_key', detail: `unknown key ${KEY}` });
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err.message).not.toContain(KEY);
    expect(err.message).toContain('[redacted]');
  });

  it('the key is sent as a Bearer token', async () => {
    let auth: string | null = null;
    server.use(
      http.get(`${BASE}/api/v1/me`, ({ request }) => {
        auth = request.headers.get('authorization');
        return HttpResponse.json({ error: 'revoked' }, { status: 401 });
      }),
    );
    const err = await client.me.get().catch((e: unknown) => e);
    expect(auth).toBe(`Bearer ${KEY}`);
    expect(isSellerError(err)).toBe(true);
    expect(String(err)).not.toContain(KEY);
    expect(JSON.stringify(err)).not.toContain(KEY);
  });

  it('a connection error does not show the key either', async () => {
    server.use(http.get(`${BASE}/api/v1/me`, () => HttpResponse.error()));
    const err = await client.me.get().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as Error).message).not.toContain(KEY);
    expect((err as Error).message).toContain('[me.get]');
  });
});

describe('errorFromResponse', () => {
  const headers = new Headers({ 'x-request-id': 'r1', 'retry-after': '5' });

  it('classes by the body code', () => {
    expect(errorFromResponse(400, { error: 'idempotency_key_required' }, headers, 'keys.create')).toBeInstanceOf(BadRequestError);
    const rate = errorFromResponse(429, { error: 'rate' }, headers);
    expect(rate).toBeInstanceOf(RateLimitError);
    expect((rate as RateLimitError).retryAfterSeconds).toBe(5);
    expect(rate.operation).toBeUndefined();
    expect(rate.requestId).toBe('r1');
  });

  it('classes a body without the envelope by status', () => {
    expect(errorFromResponse(502, '<html>', undefined)).toBeInstanceOf(ServerError);
    expect(errorFromResponse(502, '<html>', undefined).code).toBe('internal');
    // A 503 is the service down for a while, not a failure of the call (issue 37, item 3).
    expect(errorFromResponse(503, '<html>', undefined)).toBeInstanceOf(ServerError);
    expect(errorFromResponse(503, '<html>', undefined).code).toBe('unavailable');
    expect(errorFromResponse(429, undefined, undefined)).toBeInstanceOf(RateLimitError);
    expect(errorFromResponse(404, undefined, undefined)).toBeInstanceOf(NotFoundError);
    const odd = errorFromResponse(418, { message: 'teapot' }, undefined, 'me.get');
    expect(odd.constructor).toBe(SellerError);
    expect(odd.code).toBe('invalid_response');
    expect(odd.message).toBe('invalid_response: unexpected HTTP 418 answer without an error body [me.get, HTTP 418]');
  });

  it('an unknown error code is carried as it came, in the class of its status', () => {
    const frozen = errorFromResponse(403, { error: 'seller_frozen', detail: 'payouts frozen' }, undefined, 'me.get');
    expect(frozen).toBeInstanceOf(PermissionError);
    expect(frozen.code).toBe('seller_frozen');
    expect(frozen.status).toBe(403);
    expect(frozen.detail).toBe('payouts frozen');
    expect(frozen.message).toBe('seller_frozen: payouts frozen [me.get, HTTP 403]');
    expect(errorFromResponse(400, { error: 'made_up' }, undefined)).toBeInstanceOf(BadRequestError);
    expect(errorFromResponse(401, { error: 'key_expired' }, undefined)).toBeInstanceOf(AuthenticationError);
    expect(errorFromResponse(404, { error: 'gone' }, undefined)).toBeInstanceOf(NotFoundError);
    expect(errorFromResponse(503, { error: 'maintenance' }, undefined)).toBeInstanceOf(ServerError);
    expect(errorFromResponse(503, { error: 'maintenance' }, undefined).code).toBe('maintenance');
    const conflict = errorFromResponse(409, { error: 'order_locked' }, undefined) as RejectedError;
    expect(conflict).toBeInstanceOf(RejectedError);
    expect(conflict.refusal.kind).toBe('order_locked');
    const teapot = errorFromResponse(418, { error: 'teapot' }, undefined);
    expect(teapot.constructor).toBe(SellerError);
    expect(teapot.code).toBe('teapot');
  });

  it('an unknown refusal kind is kept, with its details', () => {
    const err = errorFromResponse(409, { error: 'rejected', refusal: { kind: 'price_locked', until: '2026-12-01' } }, undefined) as RejectedError;
    expect(err.refusal).toEqual({ kind: 'price_locked', until: '2026-12-01' });
  });

  it('a rejected body without a refusal still gives a refusal', () => {
    const err = errorFromResponse(409, { error: 'rejected' }, undefined) as RejectedError;
    expect(err.refusal.kind).toBe('unknown');
  });

  it('parseRetryAfter reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('10')).toBe(10);
    expect(parseRetryAfter('1.5')).toBe(1.5);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    const now = Date.parse('2026-11-21T08:00:00Z');
    expect(parseRetryAfter('Sat, 21 Nov 2026 08:00:30 GMT', now)).toBe(30);
  });
});
