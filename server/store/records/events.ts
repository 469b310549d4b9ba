/** The stored form of an event in a seller's outbox (`SellerDoc.events`); `data` carries no buyer identity. */
import type { EventKind } from '../../../sdk/contract/index.ts';

export interface EventRecord {
  id: string;
  kind: EventKind;
  data: Record<string, unknown>;
  at: string;
}
