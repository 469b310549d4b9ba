/**
 * Shared helpers of the server tests: an in-memory app with a fixed admin token, sellers made
 * through the sandbox, and `call` (an `inject` of one API request that adds an `Idempotency-Key`
 * to changing calls unless told not to).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { ERROR_STATUS, type ErrorCode } from '../../sdk/contract/index.ts';
import { buildApp, type AppOptions } from '../../server/app.ts';

export const ADMIN = 'adm_test_token_0123456789';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** An in-memory app with the fixed admin token `ADMIN` (options override). */
export function makeApp(opts: AppOptions = {}): Promise<FastifyInstance> {
  return buildApp({ memory: true, adminToken: ADMIN, ...opts });
}

export interface Answer<T = any> {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** The parsed JSON body (undefined when the body is empty or not JSON). */
  body: T;
  /** The raw body text. */
  text: string;
}

export interface CallHeaders {
  /** `null` removes a header: `{'idempotency-key': null}` sends a changing call without a key. */
  [name: string]: string | null;
}

/** A request body: an object is sent as JSON; `{raw, contentType}` sends bytes as they are. */
export type Body = unknown | { raw: string | Buffer; contentType?: string };

const isRaw = (b: unknown): b is { raw: string | Buffer; contentType?: string } =>
  typeof b === 'object' && b !== null && 'raw' in b;

async function send(
  app: FastifyInstance,
  method: Method,
  url: string,
  authorization: string | null,
  body: Body,
  headers: CallHeaders,
): Promise<Answer> {
  const h: Record<string, string> = {};
  if (authorization !== null) h.authorization = authorization;
  let payload: string | Buffer | undefined;
  if (isRaw(body)) {
    payload = body.raw;
    if (body.contentType) h['content-type'] = body.contentType;
  } else if (body !== undefined) {
    payload = JSON.stringify(body);
    h['content-type'] = 'application/json';
  }
  for (const [name, value] of Object.entries(headers)) {
    if (value === null) delete h[name.toLowerCase()];
    else h[name.toLowerCase()] = value;
  }
  const res = await app.inject({ method, url, headers: h, ...(payload === undefined ? {} : { payload }) });
  let parsed: unknown;
  try {
    parsed = res.body.length > 0 ? JSON.parse(res.body) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.statusCode, headers: res.headers as Answer['headers'], body: parsed, text: res.body };
}

/**
 * One seller-API request with `Authorization: Bearer <key>` (`key` null: no header). Changing calls
 * get a fresh `Idempotency-Key` unless `headers` names one (a value, or `null` for none).
 */
export function call<T = any>(
  app: FastifyInstance,
  key: string | null,
  method: Method,
  url: string,
  body?: Body,
  headers: CallHeaders = {},
): Promise<Answer<T>> {
  const all: CallHeaders = { ...headers };
  const named = Object.keys(all).some((n) => n.toLowerCase() === 'idempotency-key');
  if (method !== 'GET' && !named) all['idempotency-key'] = `test-${randomUUID()}`;
  return send(app, method, url, key === null ? null : `Bearer ${key}`, body, all);
}

/** A sandbox request with the admin token. */
export function sandbox<T = any>(app: FastifyInstance, method: Method, url: string, body?: Body, headers: CallHeaders = {}): Promise<Answer<T>> {
  return send(app, method, `/sandbox/v1${url}`, `Bearer ${ADMIN}`, body, headers);
}

export interface SellerCreated {
  sellerId: string;
  keyId: string;
  apiKey: string;
}

/** A seller and its first key, made through the sandbox. */
export async function newSeller(
  app: FastifyInstance,
  body: { mode?: 'live' | 'test'; sellerType?: string; admission?: 'complete' | 'none'; scopes?: string[] } = {},
): Promise<SellerCreated> {
  const res = await sandbox<SellerCreated>(app, 'POST', '/sellers', body);
  if (res.status !== 201) throw new Error(`sandbox createSeller answered ${res.status}: ${res.text}`);
  return res.body;
}

/** Issues another key for a seller through `POST /keys`. */
export async function issueKey(app: FastifyInstance, key: string, scopes: string[], name = 'extra'): Promise<{ id: string; key: string; prefix: string; scopes: string[]; mode: string }> {
  const res = await call(app, key, 'POST', '/api/v1/keys', { name, scopes });
  if (res.status !== 201) throw new Error(`POST /keys answered ${res.status}: ${res.text}`);
  return res.body;
}

/** Sets a seller's status through the sandbox. */
export async function setStatus(app: FastifyInstance, sellerId: string, status: 'active' | 'blocked' | 'not_seller'): Promise<void> {
  const res = await sandbox(app, 'PUT', `/sellers/${sellerId}/status`, { status });
  if (res.status !== 200) throw new Error(`sandbox setSellerStatus answered ${res.status}: ${res.text}`);
}

const ERROR_KEYS = new Set(['error', 'detail', 'refusal']);

/**
 * Checks an error answer: the status and code, the status the contract gives that code, a body of
 * the envelope's keys only, nothing internal inside (no stack, no file paths, no fastify codes),
 * and a request id.
 */
export function expectError(res: Answer, status: number, code: ErrorCode): void {
  expect(res.status, res.text).toBe(status);
  expect(res.body?.error, res.text).toBe(code);
  expect(ERROR_STATUS[code]).toBe(status);
  expectCleanError(res);
}

/** The envelope holds only `error`, `detail`, `refusal`, the code's status matches the contract, no internals leak. */
export function expectCleanError(res: Answer): void {
  expect(res.body, res.text).toBeTypeOf('object');
  for (const k of Object.keys(res.body)) expect(ERROR_KEYS.has(k), `unexpected key ${k} in ${res.text}`).toBe(true);
  expect(res.status, res.text).toBe(ERROR_STATUS[res.body.error as ErrorCode]);
  expect(res.text).not.toMatch(/\n\s+at |node_modules|\/work\/|\.ts:\d|FST_|stack|TypeError|SyntaxError|ZodError|Unexpected token/);
  expect(res.headers['x-request-id'], 'x-request-id').toBeTruthy();
}
