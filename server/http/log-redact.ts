/**
 * The request log never carries a secret in a URL: a Telegram bot's token is part of every Bot API
 * path (`/sandbox/telegram/bot{TOKEN}/{method}`), so the logger's request serializer writes it
 * redacted. Everything else of fastify's default request line is kept.
 */
import type { FastifyRequest } from 'fastify';

/** A URL with a bot token taken out: `/sandbox/telegram/bot123:ABC/getMe` → `/sandbox/telegram/bot<redacted>/getMe`. */
export const redactUrl = (url: string): string => url.replace(/\/bot[^/?#]+/gi, '/bot<redacted>');

export const logSerializers = {
  req: (req: FastifyRequest) => ({
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  }),
};
