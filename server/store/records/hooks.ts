/** Stored records of the event subscription, its deliveries and the probe receiver. */
import type { EventKind } from '../../../sdk/contract/index.ts';

export interface HookRecord {
  url: string;
  events: EventKind[];
  /** Sealed signing secret, AAD `hook:<seller id>`. */
  sealedSecret: string;
  status: 'active' | 'paused' | 'off';
  failures: number;
  pausedAt: string | null;
}

export interface DeliveryRecord {
  id: string;
  /** Per seller, increasing: the order of the log (newest first). */
  seq: number;
  createdAt: string;
  event: EventKind;
  eventId: string | null;
  data: Record<string, unknown>;
  at: string;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  test: boolean;
  /** The latest attempts, oldest first (at most ATTEMPTS_KEPT, server/webhooks/outbox.ts); absent on older records. */
  attemptLog?: AttemptRecord[];
  /** The request headers of the last attempt (the signature is no secret); absent before any attempt. */
  lastHeaders?: Record<string, string> | null;
}

/** One attempt of a delivery. */
export interface AttemptRecord {
  attempt: number;
  at: string;
  status: number | null;
  error: string | null;
  durationMs: number;
}

export interface ProbeHitRecord {
  receivedAt: string;
  headers: Record<string, string>;
  body: string;
}
