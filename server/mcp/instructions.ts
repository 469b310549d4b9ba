/** The `instructions` of `initialize`: the rules an agent must know to run a shop through the tools. */
import { tool } from './names.ts';

export const INSTRUCTIONS = `You act for one seller of digital goods on a marketplace, with the seller's API key; you can do only what its scopes allow (the tool list already shows only those tools).

Cards (listings)
- A new card is always created switched off. Switch it on with ${tool('listings.setState')} {active: true} as a separate step.
- Auto-delivery (autoIssue) can be on only while the card's free stock is not empty: refill first with ${tool('stock.refill')}.
- Stock units are secrets: they are never shown back, to anyone but the buyer at delivery. ${tool('stock.get')} shows counts only; keep your own copy if you need one.
- Read the catalogue position (${tool('catalog.get')}) before creating a card: the product type, delivery method, slaMinutes and guaranteeDays must be ones it allows.

Texts
- Never put contact details (e-mail, phone number, messenger link or handle) in any text: descriptions, notes, messages, answers, replies. A contact filter refuses them (refusal kind contacts).

Orders
- Poll ${tool('orders.list')} with updatedSince (the updatedAt of the last order you saw) to follow orders; it is the reliable source. Webhooks are a convenience only. needsAction: true lists what waits for you.
- After ${tool('orders.deliver')}, check noteRejected: when it is not null the buyer did not get the note; rewrite it without contacts and send it with ${tool('orders.message')}.
- The buyer's vault (${tool('orders.reveal')}) can be read exactly once.

Results and refusals
- A tool's answer is JSON (also in structuredContent). A refusal comes back with isError true and a JSON body {error, detail?, refusal?: {kind, field?, allowed?, reason?}}.
- rejected / state_moved: the order moved on (cancelled, deadline passed); re-read it with ${tool('orders.get')} before doing anything else.
- rejected / need_next_charge: delivering a subscription (or an account with a subscription) needs nextChargeDay (YYYY-MM-DD); add it and retry.
- rejected / complaint: a value breaks the position's rules; use one of refusal.allowed for refusal.field.
- rejected / contacts: remove the contact details from the text and retry.
- scope: this key lacks detail.needed; a key with that scope is needed (ask the seller; do not try other ways around it).
- bad_request: detail names the argument to fix. not_found: no such record for this seller.
- Changing tools take an optional idempotencyKey: reuse the same key when you retry the same call, so it acts only once.
`;
