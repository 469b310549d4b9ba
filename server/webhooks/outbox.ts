/**
 * The webhook outbox: every recorded event becomes a pending delivery (in the same write as the
 * change, when the seller's subscription is active and includes the kind: {@link enqueueEvent}
 * listens on `svc.events`), and a due-queue driven by the server clock ({@link runDue} on
 * `svc.clock`) runs the attempts on the ladder. Its memory is `svc.outbox` (./outbox-state.ts);
 * `buildApp` wires both listeners and {@link resumeAll} at start.
 *
 * - The first attempt runs at once (scheduled after the event's write); later ones when the clock
 *   reaches `nextAttemptAt` (`clock.onAdvance`: the sandbox's advance and the real-time tick).
 * - Never two attempts of one delivery at once; every change of a delivery is written to the
 *   seller's document before the next attempt, so a restart resumes every pending delivery.
 * - 20 failed attempts in a row (across deliveries) pause the subscription; a success resets the
 *   count. A paused subscription gets no attempts until it is resumed or edited.
 */
import { EVENT_KINDS, type EventKind } from '../../sdk/contract/index.ts';
import { iso } from '../clock.ts';
import type { ServerContext } from '../context.ts';
import type { EventRecord } from '../store/records/events.ts';
import { newId } from '../ids.ts';
import type { SellerDoc } from '../store/docs.ts';
import type { AttemptRecord, DeliveryRecord, HookRecord } from '../store/records/hooks.ts';
import { nextAttemptAt, PAUSE_AFTER_FAILURES } from './ladder.ts';
import { chaosFailure, duplicated, heldBack, sentAfter } from './chaos.ts';
import type { WebhookOutbox } from './outbox-state.ts';
import { probeTarget } from './probe.ts';
import { judgeStatus, sendAttempt, signDelivery, type AttemptResult, type SignedDelivery } from './sender.ts';

/**
 * Deliveries kept in the log. Pending deliveries of events are never dropped; pending test
 * deliveries are, oldest first, when finished ones do not make room (`hooks.test` on a paused
 * subscription would otherwise grow the log without bound).
 */
export const DELIVERIES_KEPT = 500;

/** Attempts kept in a delivery's log (the ladder makes 8; a resend adds one). */
export const ATTEMPTS_KEPT = 10;

/** AAD of a seller's sealed signing secret. */
export const secretAad = (sellerId: string) => `hook:${sellerId}`;

/** Event kinds as the server understands them: unknown and repeated kinds dropped, canonical order. */
export function normaliseEvents(kinds: readonly string[]): EventKind[] {
  const wanted = new Set(kinds);
  return EVENT_KINDS.filter((k) => wanted.has(k));
}

/** A pending delivery of an event, appended to the seller's log (not yet queued). */
export function addDelivery(
  doc: SellerDoc,
  input: { event: EventKind; data: Record<string, unknown>; at: string; eventId: string | null; test: boolean },
): DeliveryRecord {
  const last = doc.deliveries.at(-1);
  const d: DeliveryRecord = {
    id: newId('dlv'),
    seq: (last?.seq ?? doc.deliveries.length) + 1,
    createdAt: input.at,
    event: input.event,
    eventId: input.eventId,
    data: input.data,
    at: input.at,
    attempts: 0,
    lastStatus: null,
    lastError: null,
    nextAttemptAt: input.at,
    deliveredAt: null,
    test: input.test,
  };
  doc.deliveries.push(d);
  pruneLog(doc);
  return d;
}

function pruneLog(doc: SellerDoc): void {
  let excess = doc.deliveries.length - DELIVERIES_KEPT;
  if (excess <= 0) return;
  // Finished deliveries first, then pending test ones (a dropped one leaves the queue when due).
  for (const droppable of [(d: DeliveryRecord) => d.nextAttemptAt === null, (d: DeliveryRecord) => d.test]) {
    doc.deliveries = doc.deliveries.filter((d) => {
      if (excess > 0 && droppable(d)) {
        excess--;
        return false;
      }
      return true;
    });
    if (excess <= 0) return;
  }
}

/** Puts a delivery in the due-queue (or takes it out when nothing is scheduled). */
export function queueDelivery(svc: ServerContext, sellerId: string, d: DeliveryRecord): void {
  const st = svc.outbox;
  if (d.nextAttemptAt === null || d.deliveredAt !== null) st.queue.delete(d.id);
  else st.queue.set(d.id, { sellerId, due: Date.parse(d.nextAttemptAt) });
}

/** Runs the due deliveries soon (after the current call's write). */
export function kick(svc: ServerContext): void {
  const st = svc.outbox;
  if (st.closed || st.kicked) return;
  st.kicked = new Promise<void>((resolve) => {
    setImmediate(() => {
      st.kicked = null;
      runDue(svc).then(resolve, resolve);
    });
  });
}

/** Pending deliveries of a seller, due now: for resume and for an edit of a paused subscription. */
export function rescheduleNow(svc: ServerContext, doc: SellerDoc, now: Date): void {
  for (const d of doc.deliveries) {
    if (d.nextAttemptAt === null || d.deliveredAt !== null) continue;
    if (Date.parse(d.nextAttemptAt) > now.getTime()) d.nextAttemptAt = iso(now);
    queueDelivery(svc, doc.sellerId, d);
  }
  kick(svc);
}

/** Pending deliveries of a seller stop (the subscription was switched off). */
export function stopPending(svc: ServerContext, doc: SellerDoc): void {
  for (const d of doc.deliveries) {
    if (d.nextAttemptAt === null) continue;
    d.nextAttemptAt = null;
    d.lastError ??= 'delivery switched off';
    queueDelivery(svc, doc.sellerId, d);
  }
}

/** The event listener: a pending delivery in the same document, when the subscription wants it. */
export function enqueueEvent(svc: ServerContext, sellerId: string, event: EventRecord, doc: SellerDoc): void {
  const hook = doc.hooks;
  if (!hook || hook.status !== 'active' || !hook.events.includes(event.kind)) return;
  const d = addDelivery(doc, { event: event.kind, data: event.data, at: event.at, eventId: event.id, test: false });
  queueDelivery(svc, sellerId, d);
  svc.changes.note(sellerId, { type: 'delivery', sellerId, deliveryId: d.id, at: event.at });
  kick(svc);
}

/** Starts every due delivery that is not running and waits for them. */
export async function runDue(svc: ServerContext, nowMs = svc.clock.nowMs()): Promise<void> {
  const st = svc.outbox;
  if (st.closed) return;
  const work: Promise<void>[] = [];
  for (const [id, entry] of st.queue) {
    if (entry.due <= nowMs && !st.running.has(id)) work.push(attempt(svc, entry.sellerId, id));
  }
  await Promise.all(work);
}

/** Waits until no attempt runs and nothing is scheduled to start at once (tests, shutdown). */
export async function webhooksIdle(svc: ServerContext): Promise<void> {
  const st = svc.outbox;
  for (;;) {
    const pending = [...st.running.values(), ...(st.kicked ? [st.kicked] : [])];
    if (pending.length === 0) return;
    await Promise.all(pending);
  }
}

/** One attempt of a delivery, if it is still due and its subscription active. */
export function attempt(svc: ServerContext, sellerId: string, deliveryId: string): Promise<void> {
  const st = svc.outbox;
  const running = st.running.get(deliveryId);
  if (running) return running;
  const work = runAttempt(svc, st, sellerId, deliveryId).finally(() => st.running.delete(deliveryId));
  st.running.set(deliveryId, work);
  return work;
}

async function runAttempt(svc: ServerContext, st: WebhookOutbox, sellerId: string, deliveryId: string): Promise<void> {
  const doc = await svc.store.seller(sellerId);
  // Whatever led here (the event's own write, the previous attempt) is on disk before we send.
  await svc.store.writeSeller(sellerId);
  if (st.closed) return;
  const d = doc.deliveries.find((x) => x.id === deliveryId);
  const startMs = svc.clock.nowMs();
  if (!d || d.nextAttemptAt === null || d.deliveredAt !== null) {
    st.queue.delete(deliveryId);
    return;
  }
  if (Date.parse(d.nextAttemptAt) > startMs) {
    queueDelivery(svc, sellerId, d);
    return;
  }
  const hook = doc.hooks;
  if (!hook || hook.status !== 'active') {
    // Waits in the log until the subscription is resumed or edited (or stops when it is deleted).
    st.queue.delete(deliveryId);
    return;
  }
  const again = () => kick(svc);
  if (heldBack(svc, sellerId, d, again)) return; // webhook chaos: reorder, delay (./chaos.ts)
  const number = d.attempts + 1;
  // The signature's timestamp is wall-clock time, not the server clock: a receiver judges its
  // freshness against its own clock, which the sandbox's advance does not move.
  const wallStart = Date.now();
  const failed = chaosFailure(svc, sellerId); // webhook chaos `fail`: no request is sent
  const { result, headers } = failed ? { result: failed, headers: null } : await deliver(svc, st, doc, hook, d, number, wallStart);
  sentAfter(svc, sellerId, d, again);

  const endMs = svc.clock.nowMs();
  logAttempt(d, number, startMs, wallStart, result, headers);
  const current = doc.hooks;
  const wasActive = current?.status === 'active';
  if (result.ok) {
    d.deliveredAt = iso(endMs);
    d.nextAttemptAt = null;
    if (current) current.failures = 0;
  } else {
    const next = current ? nextAttemptAt(number, startMs) : null;
    d.nextAttemptAt = next === null ? null : iso(next);
    if (current) {
      current.failures += 1;
      if (current.failures >= PAUSE_AFTER_FAILURES && current.status === 'active') {
        current.status = 'paused';
        current.pausedAt = iso(endMs);
      }
    }
  }
  queueDelivery(svc, sellerId, d);
  const at = iso(endMs);
  svc.changes.note(sellerId, { type: 'delivery', sellerId, deliveryId: d.id, at });
  if (wasActive && current?.status !== 'active') svc.changes.note(sellerId, { type: 'hooks', sellerId, at });
  const notices = svc.changes.take([sellerId]);
  await svc.store.writeSeller(sellerId);
  svc.changes.publish(notices);
  if (result.ok && duplicated(svc, sellerId)) await sendAgain(svc, st, doc, d);
}

/**
 * The sandbox's resend: one more attempt of a delivery, now, outside the ladder. It waits for an
 * attempt already running and is counted as one while it runs. A success delivers an undelivered
 * delivery (`deliveredAt` keeps the first success of a delivered one); a failure changes nothing
 * but the attempt log: no retry is queued and the subscription's failures are not counted.
 */
export async function resend(svc: ServerContext, doc: SellerDoc, d: DeliveryRecord): Promise<void> {
  const st = svc.outbox;
  for (let running = st.running.get(d.id); running; running = st.running.get(d.id)) await running;
  const work = resendNow(svc, st, doc, d).finally(() => st.running.delete(d.id));
  st.running.set(d.id, work);
  await work;
}

async function resendNow(svc: ServerContext, st: WebhookOutbox, doc: SellerDoc, d: DeliveryRecord): Promise<void> {
  const hook = doc.hooks;
  if (!hook || st.closed) return;
  const number = d.attempts + 1;
  const startMs = svc.clock.nowMs();
  const wallStart = Date.now();
  const failed = chaosFailure(svc, doc.sellerId);
  const { result, headers } = failed ? { result: failed, headers: null } : await deliver(svc, st, doc, hook, d, number, wallStart);
  const endMs = svc.clock.nowMs();
  logAttempt(d, number, startMs, wallStart, result, headers);
  if (result.ok && d.deliveredAt === null) {
    d.deliveredAt = iso(endMs);
    d.nextAttemptAt = null;
    hook.failures = 0;
    queueDelivery(svc, doc.sellerId, d);
  }
  svc.changes.note(doc.sellerId, { type: 'delivery', sellerId: doc.sellerId, deliveryId: d.id, at: iso(endMs) });
}

/** Counts an attempt made, keeps it in the delivery's bounded log, and the headers it was sent with. */
function logAttempt(d: DeliveryRecord, number: number, startMs: number, wallStart: number, result: AttemptResult, headers: Record<string, string> | null): void {
  d.attempts = number;
  d.lastStatus = result.status;
  d.lastError = result.error;
  const attempt: AttemptRecord = { attempt: number, at: iso(startMs), status: result.status, error: result.error, durationMs: Math.max(0, Date.now() - wallStart) };
  const log = (d.attemptLog ??= []);
  log.push(attempt);
  if (log.length > ATTEMPTS_KEPT) log.splice(0, log.length - ATTEMPTS_KEPT);
  d.lastHeaders = headers;
}

/** Webhook chaos `duplicate`: a delivered delivery sent again as its next attempt, and logged. */
async function sendAgain(svc: ServerContext, st: WebhookOutbox, doc: SellerDoc, d: DeliveryRecord): Promise<void> {
  const hook = doc.hooks;
  if (!hook || st.closed) return;
  const number = d.attempts + 1;
  const startMs = svc.clock.nowMs();
  const wallStart = Date.now();
  const { result, headers } = await deliver(svc, st, doc, hook, d, number, wallStart);
  logAttempt(d, number, startMs, wallStart, result, headers);
  svc.changes.note(doc.sellerId, { type: 'delivery', sellerId: doc.sellerId, deliveryId: d.id, at: iso(svc.clock.nowMs()) });
  const notices = svc.changes.take([doc.sellerId]);
  await svc.store.writeSeller(doc.sellerId);
  svc.changes.publish(notices);
}

async function deliver(
  svc: ServerContext,
  st: WebhookOutbox,
  doc: SellerDoc,
  hook: HookRecord,
  d: DeliveryRecord,
  number: number,
  signedAtMs: number,
): Promise<{ result: AttemptResult; headers: Record<string, string> | null }> {
  let secret: string;
  try {
    secret = svc.sealer.open(hook.sealedSecret, secretAad(doc.sellerId));
  } catch {
    return { result: { ok: false, status: null, error: 'the signing secret cannot be read on the server' }, headers: null };
  }
  const signed = signDelivery(d, number, secret, signedAtMs);
  const probePath = probeTarget(svc, doc, hook.url);
  if (probePath !== null) return { result: await deliverInternally(st, probePath, signed), headers: signed.headers };
  if (svc.options.hookSend) return { result: await svc.options.hookSend(hook.url, signed), headers: signed.headers };
  const result = await sendAttempt(hook.url, signed, {
    allowLocal: svc.options.allowLocalHooks,
    timeoutMs: svc.options.hookTimeoutMs,
    ...(svc.options.hookLookup ? { lookup: svc.options.hookLookup } : {}),
  });
  return { result, headers: signed.headers };
}

/** The probe receiver is this server: the signed request goes to its route without the network. */
async function deliverInternally(st: WebhookOutbox, path: string, signed: SignedDelivery): Promise<AttemptResult> {
  if (!st.app) return { ok: false, status: null, error: 'the probe receiver is not running' };
  try {
    const res = await st.app.inject({ method: 'POST', url: path, headers: signed.headers, payload: signed.body });
    return judgeStatus(res.statusCode);
  } catch {
    return { ok: false, status: null, error: 'the probe receiver failed' };
  }
}

/** Puts every pending delivery of every seller in the queue (start-up) and runs the due ones. */
export async function resumeAll(svc: ServerContext): Promise<void> {
  const st = svc.outbox;
  for (const id of await svc.store.sellerIds()) {
    const doc = await svc.store.seller(id);
    if (doc.probe) st.probeTokens.set(doc.probe.token, id);
    for (const d of doc.deliveries) queueDelivery(svc, id, d);
  }
  kick(svc);
}

