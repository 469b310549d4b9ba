/**
 * The inspector's live change stream: `GET /sandbox/v1/changes[?sellerId=…]`, server-sent events,
 * admin token as every sandbox call (401 without it). Fed by the server's change notices
 * (server/domain/change-bus.ts), published once a change is written; nothing polls the store. Each
 * notice becomes one event of the contract's shape (sdk/contract/sandbox-inspect.ts `ChangeEvents`),
 * built once from the record as it is then by the inspector's views (no secret) and written through
 * the event's schema, then sent to every open stream that wants it. Streams end when the server closes.
 *
 * Every event has an id (`id: <epoch>-<number>`), and the recent ones are kept (./change-replay.ts):
 * a reconnect that names the last id it read (the `Last-Event-ID` header, as the event-stream
 * standard does, or `?lastEventId=`) gets `ready` with `resumed: true` and then what it missed;
 * an id this server cannot resume from (another epoch: a restart; too old; unknown) gets
 * `resumed: false`, and the client reads again.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { BASE_PATH, ChangeEvents, ChangesQuery, SANDBOX_CHANGES_PATH, type ChangeEvent } from '../../sdk/contract/index.ts';
import type { ServerContext } from '../context.ts';
import type { ChangeNotice } from '../domain/change-bus.ts';
import { ChangeReplay } from './change-replay.ts';
import { orderView } from '../domain/orders.ts';
import { serializerOf } from '../http/answer-json.ts';
import { ApiError } from '../http/errors.ts';
import { checkAdmin } from '../http/execute.ts';
import { header } from '../http/header.ts';
import { invalidInput } from '../http/validate.ts';
import { cardView } from '../routes/listings.ts';
import { deliveryView, hooksView, sellerView } from './inspect-views.ts';

/** A comment line this often keeps proxies and idle timers from closing a quiet stream. */
export const PING_MS = 15_000;
/** A stream whose client reads slower than this much is behind is closed (it resumes on reconnect, or re-reads when too far behind). */
export const BEHIND_LIMIT_BYTES = 1024 * 1024;

interface Stream {
  sellerId: string | undefined;
  reply: FastifyReply;
}

/** The event a notice becomes, from the records as they are now; null when its record is gone. */
async function eventOf(svc: ServerContext, n: ChangeNotice): Promise<ChangeEvent | null> {
  if (n.type === 'clock') return { type: 'clock', at: n.at, now: n.now, moved: n.moved };
  if (n.type === 'faults') return { type: 'faults', at: n.at };
  if (n.type === 'telegram') return { type: 'telegram', at: n.at, bot: n.bot, chat: n.chat };
  const doc = await svc.store.seller(n.sellerId);
  const base = { at: n.at, sellerId: n.sellerId };
  switch (n.type) {
    case 'order': {
      const order = n.view ?? (Object.hasOwn(doc.orders, n.orderId) ? orderView(doc.orders[n.orderId]!) : undefined);
      if (!order) return null;
      return { type: 'order', ...base, change: n.change, from: n.from, to: n.to, action: n.action, by: n.by, order };
    }
    case 'card': {
      const card = Object.hasOwn(doc.cards, String(n.number)) ? doc.cards[String(n.number)] : undefined;
      return { type: 'card', ...base, number: n.number, card: card ? cardView(svc, doc, card) : null };
    }
    case 'delivery': {
      const d = doc.deliveries.find((x) => x.id === n.deliveryId);
      return d ? { type: 'delivery', ...base, delivery: deliveryView(d) } : null;
    }
    case 'hooks':
      return { type: 'hooks', ...base, hooks: hooksView(svc, doc) };
    case 'probe':
      return { type: 'probe', ...base, hit: { receivedAt: n.hit.receivedAt, headers: n.hit.headers, body: n.hit.body } };
    case 'seller': {
      const sellers = svc.store.shared.sellers;
      return Object.hasOwn(sellers, n.sellerId) ? { type: 'seller', ...base, seller: sellerView(sellers[n.sellerId]!, doc) } : null;
    }
  }
}

/** The event's text on the wire, written through its schema (only declared fields leave); checked by zod when answers are. */
function wireText(svc: ServerContext, event: ChangeEvent, id: string): string {
  const schema = ChangeEvents[event.type];
  if (svc.options.checkAnswers) schema.parse(event);
  return `event: ${event.type}\nid: ${id}\ndata: ${serializerOf(schema)(event)}\n\n`;
}

export function registerChangeStream(app: FastifyInstance, svc: ServerContext): void {
  const streams = new Set<Stream>();
  let chain: Promise<void> = Promise.resolve();
  const replay = new ChangeReplay();
  let closing = false;

  const send = (stream: Stream, text: string) => {
    const res = stream.reply.raw;
    if (res.writableEnded || res.destroyed) return;
    if (res.writableLength > BEHIND_LIMIT_BYTES) {
      res.destroy();
      return;
    }
    res.write(text);
  };

  // One event per notice, built in the order the notices came, for every stream that wants it.
  // Nobody reading, nor anyone back soon: no event is built, the change only closes the replay.
  svc.changes.on((notice) => {
    if (closing) return;
    if (!replay.recording()) return replay.gap();
    chain = chain
      .then(async () => {
        const event = await eventOf(svc, notice);
        if (!event) return;
        const sellerId = 'sellerId' in event ? event.sellerId : undefined;
        const text = replay.add(sellerId, (id) => wireText(svc, event, id));
        for (const stream of streams) {
          if (stream.sellerId === undefined || sellerId === undefined || sellerId === stream.sellerId) send(stream, text);
        }
      })
      .catch((err: unknown) => app.log.error({ err }, 'change stream: an event could not be sent'));
  });

  app.get(BASE_PATH.sandbox + SANDBOX_CHANGES_PATH, (req, reply) => {
    try {
      checkAdmin(svc, header(req, 'authorization'));
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return reply.code(err.status).headers(err.headers).send(err.toBody());
    }
    const query = ChangesQuery.safeParse(req.query);
    if (!query.success) return reply.code(400).send(invalidInput('query', query.error.issues).toBody());
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      'x-request-id': String(req.id),
      date: svc.clock.httpDate(),
    });
    const stream: Stream = { sellerId: query.data.sellerId, reply };
    // The header first: an EventSource sends it on its own reconnects, while its URL stays as first given.
    const lastEventId = header(req, 'last-event-id') ?? query.data.lastEventId;
    const missed = lastEventId ? replay.since(lastEventId, stream.sellerId) : null;
    streams.add(stream);
    replay.opened();
    const now = svc.clock.now().toISOString();
    // `ready` carries the last id: a client that reads nothing more resumes from it.
    send(stream, wireText(svc, { type: 'ready', at: now, now, resumed: missed !== null }, replay.head));
    for (const text of missed ?? []) send(stream, text);
    const ping = setInterval(() => send(stream, ': ping\n\n'), PING_MS);
    ping.unref();
    res.on('close', () => {
      clearInterval(ping);
      if (streams.delete(stream)) replay.closed();
    });
  });

  // Before the server stops listening: every stream ends, so closing waits for none.
  app.addHook('preClose', (done) => {
    closing = true;
    for (const stream of streams) stream.reply.raw.end();
    streams.clear();
    done();
  });
}
