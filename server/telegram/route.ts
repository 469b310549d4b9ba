/**
 * The Telegram emulator's Bot API over HTTP (issue #36): `{base}/sandbox/telegram/bot{TOKEN}/{method}`,
 * GET or POST, parameters in the query, a JSON, form or multipart body. Every answer is Telegram's
 * shape: `{ok: true, result}`, or `{ok: false, error_code, description, parameters?}`; a token of no
 * bot is 401 and a method the emulator does not know 404, as Telegram answers them. The sandbox's
 * faults reach it under `telegram.{method}` (server/faults/table.ts): a status in Telegram's shape
 * (429 with `retry_after`), a latency, a dropped connection.
 *
 * The token is a secret and the path carries it: the server's request log writes the path redacted
 * (server/http/log-redact.ts), and no answer repeats it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Fault } from '../../sdk/contract/index.ts';
import type { ServerContext } from '../context.ts';
import { BAD_GATEWAY, faultOn, faultRetryAfterS, type FaultAnswer } from '../faults/calls.ts';
import { header } from '../http/header.ts';
import { methodNamed, telegramMethods } from './methods.ts';
import { readParams, TelegramError } from './params.ts';

/** Where the emulator's Bot API lives; a bot's `apiRoot` is `{base}/sandbox/telegram`. */
export const TELEGRAM_ROOT = '/sandbox/telegram';

const UNAUTHORIZED = new TelegramError(401, 'Unauthorized');
const NOT_FOUND = new TelegramError(404, 'Not Found');

export function registerTelegram(app: FastifyInstance, svc: ServerContext): void {
  app.route({
    method: ['GET', 'POST'],
    url: `${TELEGRAM_ROOT}/*`,
    // A body fastify cannot read (bad JSON) is Telegram's 400, not the seller API's envelope.
    errorHandler: (err, _req, reply) => send(reply, new TelegramError(400, `Bad Request: ${(err as { statusCode?: number }).statusCode === 413 ? 'request is too large' : "can't parse JSON body"}`)),
    handler: (req, reply) => answer(svc, req, reply),
  });
}

async function answer(svc: ServerContext, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const path = (req.params as { '*': string })['*'];
  const m = /^bot([^/]*)\/([A-Za-z]+)$/.exec(path);
  if (!m) return send(reply, NOT_FOUND);
  const bot = svc.telegram.byToken(decodeURIComponent(m[1]!));
  if (!bot) return send(reply, UNAUTHORIZED);
  const name = methodNamed(m[2]!);
  if (!name) return send(reply, NOT_FOUND);
  const fault = await faultOn(svc, { bot: bot.id, op: `telegram.${name}` as const }, statusAnswer);
  if (fault?.drop === 'before') return drop(req, reply);
  if (fault?.instead) return reply.code(fault.instead.status).headers(fault.instead.headers).send(fault.instead.body);
  const gone = new AbortController();
  reply.raw.on('close', () => gone.abort());
  let result: unknown;
  try {
    const p = await readParams(req.query, req.body, header(req, 'content-type'));
    result = await telegramMethods[name]({ tg: svc.telegram, bot, p, nowMs: svc.clock.nowMs(), gone: gone.signal });
  } catch (err) {
    if (!(err instanceof TelegramError)) throw err;
    return send(reply, err);
  }
  if (fault?.drop === 'after') return drop(req, reply);
  return reply.code(200).send({ ok: true, result });
}

const send = (reply: FastifyReply, err: TelegramError) => reply.code(err.code).send(err.body());

function drop(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.hijack();
  req.raw.socket.destroy();
  return reply;
}

/**
 * A status fault in Telegram's shape: 429 asks to wait `retry_after` (the fault's `retryAfterMs` in
 * whole seconds, else 1 s, as the seller API's faults do); 500 and 503 Telegram's envelope, 502 the proxy page.
 */
function statusAnswer(fault: Fault): FaultAnswer {
  const seconds = faultRetryAfterS(fault);
  const wait: Record<string, string> = seconds === undefined ? {} : { 'retry-after': String(seconds) };
  if (fault.status === 502) return { ...BAD_GATEWAY, headers: { ...BAD_GATEWAY.headers, ...wait } };
  const err =
    fault.status === 429
      ? new TelegramError(429, `Too Many Requests: retry after ${seconds}`, seconds)
      : new TelegramError(fault.status === 503 ? 503 : 500, fault.status === 503 ? 'Service Unavailable' : 'Internal Server Error', seconds);
  return { status: err.code, body: err.body(), headers: wait };
}
