/**
 * The webhook outbox's state in memory, one per server (`svc.outbox`, built by `buildApp`): the
 * due-queue of deliveries, the attempts running, the probe receivers' tokens. What a delivery is
 * lives in the seller's document; this is only what the sender needs to schedule and find it.
 */
import type { FastifyInstance } from 'fastify';

export class WebhookOutbox {
  /** The server itself, for deliveries to its own probe receiver (set by `buildApp` once the app exists). */
  app: FastifyInstance | null = null;
  /** delivery id → its seller and when it is due (epoch ms). */
  readonly queue = new Map<string, { sellerId: string; due: number }>();
  /** delivery id → the attempt running now. */
  readonly running = new Map<string, Promise<void>>();
  /** probe token → seller id. */
  readonly probeTokens = new Map<string, string>();
  /** The scheduled run of due deliveries (after an event's write). */
  kicked: Promise<void> | null = null;
  /** Set when the server closes: no new attempt starts. */
  closed = false;
}
