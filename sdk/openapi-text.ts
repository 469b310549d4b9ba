/**
 * The prose of the OpenAPI document (./openapi.ts): the API's description, the sections (tags)
 * and their names, parameter and event descriptions. Words only: what the document holds comes
 * from the operation table.
 */
import { EVENT_KINDS, PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, type AnyOperation } from './contract/index.ts';

/** The sections (tags): a human name and what they hold. Unknown sections get a plain name. */
export const SECTIONS: Record<string, [name: string, description: string]> = {
  me: ['Identity', 'Who the key belongs to: the seller, the key mode and its scopes.'],
  catalog: ['Catalogue', 'The marketplace catalogue of services (read-only), the usual price of a position and demand.'],
  catalogRequests: ['Catalogue requests', 'Requests for a missing catalogue position; a person at the marketplace reviews each.'],
  listings: ['Cards', 'Your cards (listings): create (always switched off), change, switch on and off, mark as test, copy, illustrate, delete.'],
  stock: ['Stock', 'The auto-delivery stock of a card. Units are secrets: they go in and are never shown again; reads show counts.'],
  orders: ['Orders', 'Orders of your cards: read, confirm, decline, deliver, message the buyer, exchange secrets through vaults, answer a dispute. Polling with `updatedSince` is the reliable way to follow them.'],
  questions: ['Questions', 'Buyer questions about your cards.'],
  reviews: ['Reviews', 'Buyer reviews and your replies.'],
  complaints: ['Complaints', 'Your complaints about buyers of your orders.'],
  workMode: ['Work mode', 'Capacity, do-not-disturb and quiet hours. Presence itself is decided by the marketplace.'],
  papers: ['Admission papers', 'Nickname, offer, seller status with the tax number, registry confirmation and payout details.'],
  payouts: ['Payouts', 'Money paid out to you.'],
  stats: ['Statistics', 'Revenue and orders for a period.'],
  clients: ['Clients', 'Your buyers under pseudonyms, with their orders and spend.'],
  rating: ['Rating', 'Your rating: score, reviews and disputes.'],
  keys: ['API keys', 'Issue and revoke API keys. A key is shown once, at issue.'],
  hooks: ['Event subscription', 'The webhook subscription, its signing secret, the delivery log and a probe receiver for trying it out.'],
};

export const SUCCESS_TEXT: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted' };

export function sectionOf(op: Pick<AnyOperation, 'id'>): string {
  return op.id.slice(0, op.id.indexOf('.'));
}

export function sectionName(section: string): string {
  return SECTIONS[section]?.[0] ?? section.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase());
}

export const INFO_DESCRIPTION = `The seller side of the marketplace: catalogue, cards, stock, orders, feedback, papers, keys and the event subscription.

Generated from the operation table of \`service-seller\` (sdk/contract), the same table the SDK, the \`seller\` CLI, the MCP tools and the reference server are derived from.

- **Authentication**: \`Authorization: Bearer <API key>\`; each operation names the scope it needs (\`x-scope\`).
- **Changing calls** (POST, PUT, PATCH, DELETE) need an \`Idempotency-Key\` header; a retry with the same key replays the first answer.
- **Errors** share one body: \`{"error": code, "detail"?: string | object, "refusal"?: {"kind", "field"?, "allowed"?, "reason"?}}\`. A rule refusal is 409 \`rejected\` with \`refusal.kind\`; each operation lists its kinds.
- **Records of other sellers** look exactly like absent ones (\`not_found\`). A known path asked with a method it does not take is 405 \`method_not_allowed\`: its \`Allow\` header names the methods the path takes (RFC 9110); any method a path does not declare gets it, \`QUERY\` included.
- **Lists** page with \`limit\` (1–${PAGE_LIMIT_MAX}, default ${PAGE_LIMIT_DEFAULT}) and the opaque \`cursor\` from \`nextCursor\` (null on the last page); the client list pages with \`limit\` and \`skip\`.
- **Rate limit**: a token bucket per key, inside a bucket per seller over all its keys (twice a key's); answers carry \`RateLimit\` and \`RateLimit-Policy\` of the bucket closer to empty, a refusal (429 \`rate\`) \`Retry-After\`.
- **Formats**: timestamps ISO 8601 UTC with milliseconds, dates \`YYYY-MM-DD\`, money in integer roubles, cards by integer \`number\`, other records by prefixed ids (\`ord_…\`, \`key_…\`).
- **Webhooks**: the signed deliveries are described under \`webhooks\`.

The reference server's sandbox (\`/sandbox/v1\`, the marketplace and buyer simulation) is not part of this API and not in this document.`;

const PARAM_TEXT: Record<string, string> = {
  limit: `Page size, 1–${PAGE_LIMIT_MAX} (default ${PAGE_LIMIT_DEFAULT}).`,
  cursor: 'The `nextCursor` of the previous page (opaque); omit it for the first page.',
  skip: 'How many items to skip.',
  number: 'The card number.',
  slug: 'The slug of the catalogue position.',
  service: 'The slug of a catalogue position.',
  productType: 'The product type.',
  period: 'The period to count (default `all`).',
  sort: '`revenue`: per-card rows by revenue, highest first.',
  onlyUnanswered: '`true`: only questions without your answer.',
  q: 'Text to look for in the slug, title or category of a position.',
  category: 'Only positions of this category.',
  top: 'How many rows to answer, 1–100 (default 10).',
  active: 'Only cards switched on (`true`) or off (`false`).',
  status: 'Only orders in this status.',
  updatedSince: 'Only orders updated at or after this instant: pass the `updatedAt` of the last order you saw.',
  needsAction: '`true`: only orders that wait for you.',
  'listings.list service': 'Only cards of this catalogue position.',
  'catalog.demand service': 'Only demand for this catalogue position.',
};

/** The description of a path or query parameter (`id` is the record of the section). */
export function paramText(name: string, op: Pick<AnyOperation, 'id'>): { description: string } {
  if (name === 'id') return { description: `The ${sectionOf(op).replace(/s$/, '')} id.` };
  return { description: PARAM_TEXT[`${op.id} ${name}`] ?? PARAM_TEXT[name] ?? `The \`${name}\` filter.` };
}

export const EVENT_TEXT: Record<(typeof EVENT_KINDS)[number], string> & Record<string, string | undefined> = {
  'order.new': 'a buyer places an order for one of your cards',
  'order.paid': 'an order is paid (`slaMinutes` is the time you have to deliver)',
  'order.message': 'the buyer or the marketplace writes in an order',
  'order.dispute': 'the buyer opens a dispute',
  'order.cancelled': 'an order is cancelled',
  'order.completed': 'an order is completed',
  'stock.out': 'the free auto-delivery stock of a card runs out',
  'review.new': 'a buyer leaves a review',
  'question.new': 'a buyer asks a question',
};
