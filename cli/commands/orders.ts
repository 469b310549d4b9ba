/**
 * `seller orders list|show|watch|confirm|decline|deliver|message|dispute-reply|vault`: the seller's
 * orders (scope `orders`). `watch` lives in orders-watch.ts, `vault` in orders-vault.ts.
 */
import { Option } from 'commander';
import { NEEDS_NEXT_CHARGE, ORDER_STATUSES, type OrderStatus } from '../../sdk/contract/enums.ts';
import { labelOf, type Order, type OrderWithMessages } from '../lib/records.ts';
import type { SellerClient } from '../../sdk/client.ts';
import { openOption, type Register } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { UsageError } from '../lib/errors.ts';
import { dropNoteHint, refuseContacts, refuseNextCharge } from '../lib/guards.ts';
import { serviceNowMs } from '../lib/service-clock.ts';
import { listOptions, pageFlags, printList, type ListOptions, type RawListOptions } from '../lib/list.ts';
import { note, printFields, printJson, say, warn } from '../lib/output.ts';
import {
  chompNewline,
  orderRow,
  parseSince,
  SINCE_HELP,
  stateMovedHint,
  textArg,
  withHints,
} from './orders-common.ts';
import { registerVault } from './orders-vault.ts';
import { registerWatch } from './orders-watch.ts';
import { readTextInput } from '../lib/input.ts';

export interface OrdersListOptions extends ListOptions {
  status?: OrderStatus | undefined;
  needsAction: boolean;
  since?: string | undefined;
}

export interface DeliverOptions {
  id: string;
  nextCharge?: string | undefined;
  note?: string | undefined;
  noteFile?: string | undefined;
  /** Deliver a code or credentials order with an empty own vault (the goods went another way). */
  withoutVault?: boolean | undefined;
}

export interface TextOptions {
  id: string;
  text?: string | undefined;
}

export interface DeclineOptions {
  id: string;
  reason?: string | undefined;
}

export const register: Register = (noun, app) => {
  listOptions(
    noun
      .command('list')
      .alias('ls')
      .description('List orders, newest first (with --since: changed since then, oldest change first)')
      .addOption(openOption('--status <status>', 'only orders in this state', ORDER_STATUSES))
      .option('--needs-action', 'only orders waiting for you')
      .option('--since <time>', `only orders changed at or after this time: ${SINCE_HELP}`),
    'orders',
  )
    .addHelpText('after', '\nExamples:\n  $ seller orders list --needs-action\n  $ seller orders list --since 2h --all --json')
    .action(
      app.run(
        (o: RawListOptions & { status?: OrderStatus; needsAction?: boolean; since?: string }): OrdersListOptions => ({
          status: o.status,
          needsAction: o.needsAction === true,
          since: o.since === undefined ? undefined : parseSince(o.since),
          ...pageFlags(o),
        }),
        runOrdersList,
      ),
    );
  noun
    .command('show')
    .description('Show an order with its messages and vaults')
    .argument('<id>', 'order id (ord_…)')
    .action(app.run((id: string) => ({ id }), runOrdersShow));
  registerWatch(noun, app);
  noun
    .command('confirm')
    .description('Confirm a paid order of a card that requires confirmation')
    .argument('<id>', 'order id')
    .action(app.run((id: string) => ({ id }), runOrdersConfirm));
  noun
    .command('decline')
    .description('Decline an order awaiting confirmation or delivery; the buyer is refunded')
    .argument('<id>', 'order id')
    .option('--reason <text>', 'why, for the buyer (no contacts); - reads stdin')
    .action(app.run((id: string, o: { reason?: string }): DeclineOptions => ({ id, reason: o.reason }), runOrdersDecline));
  noun
    .command('deliver')
    .description('Mark an order delivered')
    .argument('<id>', 'order id')
    .option('--next-charge <date>', "next charge at the vendor, YYYY-MM-DD, today or later by the service's clock (needed for subscriptions and accounts)")
    .option('--note <text>', 'a note for the buyer (no contacts)')
    .option('--note-file <file>', 'read the note from a file (- for stdin)')
    .option('--without-vault', 'deliver a code or credentials order although your vault is empty (sent another way)')
    .addHelpText(
      'after',
      '\nA code or credentials order is handed over through your vault: put it there first\n' +
        '(seller orders vault put ID); without it the command refuses unless --without-vault.\n' +
        '\nExample:\n  $ seller orders deliver ord_123 --next-charge 2026-12-21 --note "Invite sent, check your inbox"',
    )
    .action(
      app.run(
        (id: string, o: { nextCharge?: string; note?: string; noteFile?: string; withoutVault?: boolean }): DeliverOptions => ({ id, ...o }),
        runOrdersDeliver,
      ),
    );
  noun
    .command('message')
    .description('Write to the buyer of an order (no contacts)')
    .argument('<id>', 'order id')
    .option('--text <text>', 'the message; - reads stdin')
    .action(app.run((id: string, o: { text?: string }): TextOptions => ({ id, text: o.text }), runOrdersMessage));
  noun
    .command('dispute-reply')
    .description("Answer the buyer's dispute on an order")
    .argument('<id>', 'order id')
    .option('--text <text>', 'your answer; - reads stdin')
    .action(app.run((id: string, o: { text?: string }): TextOptions => ({ id, text: o.text }), runOrdersDisputeReply));
  registerVault(noun, app);
};

// ---------------------------------------------------------------------------------------------
// list, show

export async function runOrdersList(opts: OrdersListOptions, deps: Deps): Promise<void> {
  const query = {
    status: opts.status,
    needsAction: opts.needsAction ? true : undefined,
    updatedSince: opts.since,
    limit: opts.limit,
    cursor: opts.cursor,
  };
  await printList(deps, deps.client().orders.list(query), {
    all: opts.all,
    what: 'orders',
    empty: opts.needsAction ? 'No orders need action.' : 'No orders.',
    row: orderRow,
    columns: [
      { header: 'ID', value: (r) => r.id },
      { header: 'CARD', value: (r) => r.card },
      { header: 'SERVICE', value: (r) => r.service },
      { header: 'PRICE', value: (r) => r.price },
      { header: 'STATUS', value: (r) => r.status },
      { header: 'ACTION', value: (r) => r.action },
      { header: 'DELIVER BY', value: (r) => r.deliverBy },
      { header: 'UPDATED', value: (r) => r.updated },
    ],
  });
}

export async function runOrdersShow(opts: { id: string }, deps: Deps): Promise<void> {
  const client = deps.client();
  const [order, vaults] = await Promise.all([client.orders.get(opts.id), client.orders.vaults(opts.id)]);
  if (wantsJson(deps)) {
    printJson(deps.io, { ...order, vaults: vaults.items });
    return;
  }
  printOrder(deps, order, vaults.items);
  const next = nextStep(order);
  if (next) note(deps.io, `\nNext: ${next}`);
}

const SIDE = { own: 'yours (for the buyer)', other: "the buyer's" } as const;

function printOrder(deps: Deps, o: OrderWithMessages, vaults: ReadonlyArray<{ side: string; opened: boolean }>): void {
  say(deps.io, `Order ${o.id}: card #${o.number}, ${o.service}/${o.tariff}${o.isTest ? ' (test)' : ''}`);
  printFields(deps.io, [
    ['Status', `${o.status}${o.needsAction ? ' (needs action)' : ''}`],
    ['Product', `${o.productType}, delivered by ${o.deliveryMethod}`],
    ['Price', `${o.priceRub} RUB`],
    ['SLA', `${o.slaMinutes} min${o.deliverBy ? `, deliver by ${o.deliverBy}` : ''}`],
    ['Guarantee', o.guaranteeDays === 0 ? 'none' : `${o.guaranteeDays} d${o.guaranteeUntil ? `, until ${o.guaranteeUntil}` : ''}`],
    ['Next charge', o.nextChargeDay],
    ['Created', o.createdAt],
    ['Paid', o.paidAt],
    ['Updated', o.updatedAt],
    ['Vaults', vaults.map((v) => `${labelOf(SIDE, v.side)}: ${v.opened ? 'opened' : 'not opened'}`).join('; ') || 'none'],
  ]);
  say(deps.io, '');
  if (o.messages.length === 0) {
    say(deps.io, 'No messages.');
    return;
  }
  say(deps.io, 'Messages:');
  for (const m of o.messages) say(deps.io, `  ${m.at}  ${m.from.padEnd(11)}  ${m.text.replace(/\r?\n/g, '\n' + ' '.repeat(39))}`);
}

/** What the seller can do next with an order, as a command. */
function nextStep(o: Order): string | undefined {
  switch (o.status) {
    case 'awaiting_confirmation':
      return `seller orders confirm ${o.id}   or   seller orders decline ${o.id} --reason TEXT`;
    case 'awaiting_delivery': {
      const charge = (NEEDS_NEXT_CHARGE as readonly string[]).includes(o.productType) ? ' --next-charge YYYY-MM-DD' : '';
      return `seller orders deliver ${o.id}${charge} [--note TEXT]`;
    }
    case 'disputed':
      return o.needsAction ? `seller orders dispute-reply ${o.id} --text TEXT` : undefined;
    default:
      return o.needsAction ? `seller orders message ${o.id} --text TEXT` : undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// confirm, decline, deliver

export async function runOrdersConfirm(opts: { id: string }, deps: Deps): Promise<void> {
  const order = await withHints(deps.client().orders.confirm(opts.id), { state_moved: stateMovedHint(opts.id) });
  if (wantsJson(deps)) printJson(deps.io, order);
  else say(deps.io, `Confirmed ${order.id}: now ${order.status}.`);
}

export async function runOrdersDecline(opts: DeclineOptions, deps: Deps): Promise<void> {
  const client = deps.client();
  const reason = await textArg(deps, opts.reason, '--reason', 'Reason for the buyer');
  refuseContacts(reason, 'reason');
  const order = await withHints(client.orders.decline(opts.id, { reason }), {
    state_moved: stateMovedHint(opts.id),
    contacts: 'write the reason without e-mail addresses, phone numbers, messenger handles or links',
  });
  if (wantsJson(deps)) printJson(deps.io, order);
  else say(deps.io, `Declined ${order.id}: now ${order.status}; the buyer is refunded.`);
}

/** Delivery methods whose goods reach the buyer through the seller's vault (docs/decisions.md). */
export const VAULT_METHODS: readonly string[] = ['code', 'credentials'];

/**
 * The vault rule of delivery (docs/decisions.md, "A code order is delivered through its vault"):
 * a `code` or `credentials` order whose own vault is empty is refused before the call, since the
 * buyer would get nothing; `--without-vault` says the goods went another way.
 */
async function checkVaultFilled(client: SellerClient, order: Order): Promise<void> {
  const id = order.id;
  if (!VAULT_METHODS.includes(order.deliveryMethod) || order.status !== 'awaiting_delivery') return;
  const { items } = await client.orders.vaults(id);
  if (items.some((v) => v.side === 'own')) return;
  throw new UsageError(
    `${id} is a ${order.deliveryMethod} order and your vault is empty: the buyer would get nothing (nothing was sent)`,
    `put it in first: seller orders vault put ${id}; if it reached the buyer another way, add --without-vault`,
  );
}

export async function runOrdersDeliver(opts: DeliverOptions, deps: Deps): Promise<void> {
  if (opts.note !== undefined && opts.noteFile !== undefined) throw new UsageError('use either --note or --note-file, not both');
  const client = deps.client();
  const text = opts.noteFile !== undefined ? chompNewline(await readTextInput(deps, opts.noteFile, '--note-file')) : opts.note;
  const noteText = text?.trim() ? text : undefined;
  // Checked offline before any change: a note with contacts would be withheld from a delivered order.
  refuseContacts(noteText, 'note', dropNoteHint(opts.noteFile !== undefined ? '--note-file' : '--note'));
  // The order read first also tells the service's today (its Date header) for the next charge day.
  const order = opts.withoutVault !== true || opts.nextCharge !== undefined ? await client.orders.get(opts.id) : undefined;
  refuseNextCharge(opts.nextCharge, serviceNowMs(client) ?? Date.now());
  if (opts.withoutVault !== true && order) await checkVaultFilled(client, order);
  const answer = await withHints(client.orders.deliver(opts.id, { nextChargeDay: opts.nextCharge, note: noteText }), {
    state_moved: stateMovedHint(opts.id),
    need_next_charge: 'add --next-charge YYYY-MM-DD (the date of the next charge at the vendor)',
  });
  if (wantsJson(deps)) printJson(deps.io, answer);
  else say(deps.io, `Delivered ${answer.order}: now ${answer.status}.`);
  if (answer.noteRejected !== null) {
    warn(deps.io, `the order was delivered, but the note was NOT sent to the buyer: ${answer.noteRejected}`);
    note(deps.io, `Rewrite it without contacts and send it as a message:\n  seller orders message ${answer.order} --text "..."`);
  }
}

// ---------------------------------------------------------------------------------------------
// message, dispute-reply

const CONTACTS_HINT = 'remove e-mail addresses, phone numbers, messenger handles and links, then send again';

export async function runOrdersMessage(opts: TextOptions, deps: Deps): Promise<void> {
  const client = deps.client();
  const text = await textArg(deps, opts.text, '--text', 'Message to the buyer');
  refuseContacts(text, 'message');
  const message = await withHints(client.orders.message(opts.id, { text }), {
    state_moved: stateMovedHint(opts.id),
    contacts: CONTACTS_HINT,
  });
  if (wantsJson(deps)) printJson(deps.io, message);
  else say(deps.io, `Sent ${message.id} to the buyer of ${opts.id}.`);
}

export async function runOrdersDisputeReply(opts: TextOptions, deps: Deps): Promise<void> {
  const client = deps.client();
  const text = await textArg(deps, opts.text, '--text', 'Your answer to the dispute');
  refuseContacts(text, 'answer');
  const order = await withHints(client.orders.disputeReply(opts.id, { text }), {
    not_disputed: `only a disputed order takes a dispute reply; see \`seller orders show ${opts.id}\``,
    contacts: CONTACTS_HINT,
  });
  if (wantsJson(deps)) printJson(deps.io, order);
  else say(deps.io, `Answered the dispute on ${order.id} (${order.status}).`);
}
