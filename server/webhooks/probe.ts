/**
 * The probe receiver (gaps.md): a test receiver hosted by the server itself, one per seller, at
 * `POST /hooks-probe/<token>` (outside `/api`). It answers 204 to anything and records what it got
 * (`receivedAt`, the headers, the raw body text) in the owning seller's `probe.hits`, newest first,
 * so that a client can read it back (`GET /api/v1/hooks/probe`) and check the signature itself.
 * Deliveries to the seller's own probe address go through the same signing, log and ladder as any
 * other; they reach the route internally (no network), so the address rules do not apply to it.
 * The seller's own probe address is recognised under the server's public URL, or on loopback
 * (`localhost`, 127/8, ::1) under any port, so it survives a restart on another port.
 */
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.ts';
import { base62 } from '../ids.ts';
import { isLoopbackAddress } from './address.ts';
import type { SellerDoc } from '../store/docs.ts';
import type { ProbeHitRecord } from '../store/records/hooks.ts';
import { errorBody } from '../http/errors.ts';

export const PROBE_PREFIX = '/hooks-probe/';
/** Hits kept per seller. */
export const PROBE_HITS_KEPT = 50;
/** Characters of a received body kept. */
export const PROBE_BODY_KEPT = 64 * 1024;

const TOKEN = /^prb_[A-Za-z0-9]{32}$/;

/** The origin the probe address is given under: the server's public URL (`http://localhost` before it listens). */
function probeOrigin(svc: ServerContext): string {
  return new URL(svc.options.publicUrl ?? 'http://localhost').origin;
}

export const probeUrl = (svc: ServerContext, token: string): string => `${probeOrigin(svc)}${PROBE_PREFIX}${token}`;

/** The seller's probe token, created once and kept. */
export function ensureProbe(svc: ServerContext, doc: SellerDoc): string {
  if (!doc.probe) doc.probe = { token: `prb_${base62(32)}`, hits: [] };
  svc.outbox.probeTokens.set(doc.probe.token, doc.sellerId);
  return doc.probe.token;
}

/**
 * When `url` is this server's probe address of this seller, the path to deliver to internally;
 * otherwise null (a foreign seller's probe address is an ordinary, local, address).
 */
export function probeTarget(svc: ServerContext, doc: SellerDoc, url: string): string | null {
  if (!doc.probe) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const path = `${PROBE_PREFIX}${doc.probe.token}`;
  if (parsed.pathname !== path || parsed.username || parsed.password) return null;
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  // This server under its public URL, or on loopback under any port (the port of a server started
  // with --port 0 changes across restarts; the address stays this server's own probe).
  const host = parsed.hostname.toLowerCase();
  const here = parsed.origin === probeOrigin(svc) || host === 'localhost' || isLoopbackAddress(host);
  return here ? `${path}${parsed.search}` : null;
}

function headerRecord(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** The receiver's route, in its own context so that every body is kept as raw text. */
export function registerProbeRoute(app: FastifyInstance, svc: ServerContext): void {
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    scope.post<{ Params: { token: string } }>(`${PROBE_PREFIX}:token`, async (req, reply) => {
      const token = req.params.token;
      const sellerId = TOKEN.test(token) ? svc.outbox.probeTokens.get(token) : undefined;
      if (!sellerId) return reply.code(404).send(errorBody('not_found', 'no probe receiver at this address', { record: 'probe' }));
      const doc = await svc.store.seller(sellerId);
      if (doc.probe?.token !== token) return reply.code(404).send(errorBody('not_found', 'no probe receiver at this address', { record: 'probe' }));
      const raw = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : typeof req.body === 'string' ? req.body : '';
      const hit: ProbeHitRecord = {
        receivedAt: svc.clock.now().toISOString(),
        headers: headerRecord(req.headers),
        body: raw.length > PROBE_BODY_KEPT ? raw.slice(0, PROBE_BODY_KEPT) : raw,
      };
      doc.probe.hits.unshift(hit);
      if (doc.probe.hits.length > PROBE_HITS_KEPT) doc.probe.hits.length = PROBE_HITS_KEPT;
      svc.changes.note(sellerId, { type: 'probe', sellerId, hit, at: hit.receivedAt });
      const notices = svc.changes.take([sellerId]);
      await svc.store.writeSeller(sellerId);
      svc.changes.publish(notices);
      return reply.code(204).send();
    });
  });
}
