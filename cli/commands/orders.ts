/**
 * `seller orders list|show|watch|confirm|decline|deliver|message|dispute-reply|vault`: the seller's
 * orders (scope `orders`). `watch` lives in orders-watch.ts, `vault` in orders-vault.ts.
 */
import { dateTime, day, days, money, word } from '../i18n/format.ts';
import { isInteractive } from '../lib/io.ts';
import { readDay } from '../lib/typed-values.ts';
import { dayOf as isoDayOf, nextChargeProblem } from '../../sdk/next-charge.ts';
import { orderDeadline } from '../lib/order-deadline.ts';
import { t } from '../i18n/index.ts';
import { Option } from 'commander';
import { NEEDS_NEXT_CHARGE, ORDER_STATUSES, type OrderStatus } from '../../sdk/contract/enums.ts';
import type { Order, OrderWithMessages } from '../lib/records.ts';
import type { SellerClient } from '../../sdk/client.ts';
import { openOption, type Register } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { CliError, describeError, mayPassAgain, UsageError, withoutErrorPrefix } from '../lib/errors.ts';
import { dropNoteHint, refuseContacts, refuseNextCharge } from '../lib/guards.ts';
import { serviceNowMs } from '../lib/service-clock.ts';
import { listOptions, pageFlags, printList, type ListOptions, type RawListOptions } from '../lib/list.ts';
import { note, printFields, printJson, say, warn } from '../lib/output.ts';
import {
  chompNewline,
  orderRow,
  parseSince,
  sinceByServiceClock,
  sinceFromNow,
  sinceHelp,
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
  /** `--since` as given when it counts back from now (`2h`): read again by the service's clock. */
  sinceFromNow?: string | undefined;
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
      .description(t('orders.listOrdersNewestFirst'))
      .addOption(openOption('--status <status>', t('orders.onlyOrdersInThis'), ORDER_STATUSES))
      .option('--needs-action', t('orders.onlyOrdersWaitingFor'))
      .option('--since <time>', t('orders.onlyOrdersChangedAt', { help: sinceHelp() })),
    t('orders.orders'),
  )
    .addHelpText('after', t('orders.examplesSellerOrdersList'))
    .action(
      app.run(
        (o: RawListOptions & { status?: OrderStatus; needsAction?: boolean; since?: string }): OrdersListOptions => ({
          status: o.status,
          needsAction: o.needsAction === true,
          since: o.since === undefined ? undefined : parseSince(o.since),
          sinceFromNow: o.since !== undefined && sinceFromNow(o.since) ? o.since : undefined,
          ...pageFlags(o),
        }),
        runOrdersList,
      ),
    );
  noun
    .command('show')
    .description(t('orders.showAnOrderWith'))
    .argument('<id>', t('orders.orderIdOrd'))
    .action(app.run((id: string) => ({ id }), runOrdersShow));
  registerWatch(noun, app);
  noun
    .command('confirm')
    .description(t('orders.confirmAPaidOrder'))
    .argument('<id>', t('orders.orderId'))
    .action(app.run((id: string) => ({ id }), runOrdersConfirm));
  noun
    .command('decline')
    .description(t('orders.declineAnOrderAwaiting'))
    .argument('<id>', t('orders.orderId'))
    .option('--reason <text>', t('orders.whyForTheBuyer'))
    .action(app.run((id: string, o: { reason?: string }): DeclineOptions => ({ id, reason: o.reason }), runOrdersDecline));
  noun
    .command('deliver')
    .description(t('orders.markAnOrderDelivered'))
    .argument('<id>', t('orders.orderId'))
    .option('--next-charge <date>', t('orders.nextChargeAtThe'))
    .option('--note <text>', t('orders.aNoteForThe'))
    .option('--note-file <file>', t('orders.readTheNoteFrom'))
    .option('--without-vault', t('orders.deliverACodeOr'))
    .addHelpText(
      'after',
      t('orders.aCodeOrCredentials') +
        t('orders.sellerOrdersVaultPut') +
        t('orders.exampleSellerOrdersDeliver'),
    )
    .action(
      app.run(
        (id: string, o: { nextCharge?: string; note?: string; noteFile?: string; withoutVault?: boolean }): DeliverOptions => ({ id, ...o }),
        runOrdersDeliver,
      ),
    );
  noun
    .command('message')
    .description(t('orders.writeToTheBuyer'))
    .argument('<id>', t('orders.orderId'))
    .option('--text <text>', t('orders.theMessageReadsStdin'))
    .action(app.run((id: string, o: { text?: string }): TextOptions => ({ id, text: o.text }), runOrdersMessage));
  noun
    .command('dispute-reply')
    .description(t('orders.answerTheBuyerS'))
    .argument('<id>', t('orders.orderId'))
    .option('--text <text>', t('orders.yourAnswerReadsStdin'))
    .action(app.run((id: string, o: { text?: string }): TextOptions => ({ id, text: o.text }), runOrdersDisputeReply));
  registerVault(noun, app);
};

// ---------------------------------------------------------------------------------------------
// list, show

export async function runOrdersList(opts: OrdersListOptions, deps: Deps): Promise<void> {
  const client = deps.client();
  // `--since 2h`: two hours before the service's now (after `sandbox clock advance` it is not this computer's).
  const since = opts.sinceFromNow !== undefined ? await sinceByServiceClock(client, opts.sinceFromNow) : opts.since;
  const query = {
    status: opts.status,
    needsAction: opts.needsAction ? true : undefined,
    updatedSince: since,
    limit: opts.limit,
    cursor: opts.cursor,
  };
  await printList(deps, client.orders.list(query), {
    all: opts.all,
    what: t('orders.orders'),
    empty: opts.needsAction ? t('orders.noOrdersNeedAction') : t('orders.noOrders'),
    row: orderRow,
    columns: [
      { header: t('orders.id'), value: (r) => r.id },
      { header: t('orders.card'), value: (r) => r.card },
      { header: t('orders.service'), value: (r) => r.service },
      { header: t('orders.price'), value: (r) => r.price },
      { header: t('orders.status'), value: (r) => r.status },
      { header: t('orders.action'), value: (r) => r.action },
      { header: t('orders.deliverBy'), value: (r) => r.deliverBy },
      { header: t('orders.updated'), value: (r) => r.updated },
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
  if (next) note(deps.io, t('orders.next', { next }));
}

const side = (value: string): string => (value === 'own' ? t('orders.yoursForTheBuyer') : value === 'other' ? t('orders.theBuyerS') : value);

function printOrder(deps: Deps, o: OrderWithMessages, vaults: ReadonlyArray<{ side: string; opened: boolean }>): void {
  say(deps.io, t(o.isTest ? 'orders.orderCardTest' : 'orders.orderCard', { id: o.id, number: o.number, service: o.service, tariff: o.tariff }));
  printFields(deps.io, [
    [t('orders.status2'), `${word('orderStatus', o.status)}${o.needsAction ? t('orders.needsAction') : ''}`],
    [t('orders.product'), t('orders.deliveredBy', { productType: word('productType', o.productType), deliveryMethod: word('deliveryMethod', o.deliveryMethod) })],
    [t('orders.price2'), money(o.priceRub)],
    [t('orders.sla'), o.deliverBy ? t('orders.slaBy', { sla: t('units.minutes', { n: o.slaMinutes }), by: orderDeadline(o) }) : t('units.minutes', { n: o.slaMinutes })],
    [t('orders.guarantee'), o.guaranteeUntil && o.guaranteeDays !== 0 ? t('orders.guaranteeUntil', { days: days(o.guaranteeDays), until: dateTime(o.guaranteeUntil) }) : days(o.guaranteeDays)],
    [t('orders.nextCharge'), o.nextChargeDay === null ? null : day(o.nextChargeDay)],
    [t('orders.created'), dateTime(o.createdAt)],
    [t('orders.paid'), dateTime(o.paidAt)],
    [t('orders.updated2'), dateTime(o.updatedAt)],
    [t('orders.vaults'), vaults.map((v) => `${side(v.side)}: ${v.opened ? t('orders.opened') : t('orders.notOpened')}`).join('; ') || t('words.none')],
  ]);
  say(deps.io, '');
  if (o.messages.length === 0) {
    say(deps.io, t('orders.noMessages'));
    return;
  }
  say(deps.io, t('orders.messages'));
  // The text is the buyer's or the seller's own: never translated; its lines are indented under the first.
  for (const m of o.messages) {
    const head = `  ${dateTime(m.at)}  ${word('messageFrom', m.from).padEnd(11)}  `;
    say(deps.io, `${head}${m.text.replace(/\r?\n/g, `\n${' '.repeat(head.length)}`)}`);
  }
}

/** What the seller can do next with an order, as a command. */
function nextStep(o: Order): string | undefined {
  switch (o.status) {
    case 'awaiting_confirmation':
      return t('orders.sellerOrdersConfirmOr', { id: o.id });
    case 'awaiting_delivery': {
      const charge = (NEEDS_NEXT_CHARGE as readonly string[]).includes(o.productType) ? t('orders.nextChargeYyyyMm') : '';
      return t('orders.sellerOrdersDeliverNote', { id: o.id, charge });
    }
    case 'disputed':
      return o.needsAction ? t('orders.sellerOrdersDisputeReply', { id: o.id }) : undefined;
    default:
      return o.needsAction ? t('orders.sellerOrdersMessageText', { id: o.id }) : undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// confirm, decline, deliver

export async function runOrdersConfirm(opts: { id: string }, deps: Deps): Promise<void> {
  const order = await withHints(deps.client().orders.confirm(opts.id), { state_moved: stateMovedHint(opts.id) });
  if (wantsJson(deps)) printJson(deps.io, order);
  else say(deps.io, t('orders.confirmedNow', { id: order.id, status: word('orderStatus', order.status) }));
}

export async function runOrdersDecline(opts: DeclineOptions, deps: Deps): Promise<void> {
  const client = deps.client();
  const reason = await textArg(deps, opts.reason, '--reason', t('orders.reasonQuestion'));
  refuseContacts(reason, 'reason');
  const order = await withHints(client.orders.decline(opts.id, { reason }), {
    state_moved: stateMovedHint(opts.id),
    contacts: t('orders.writeTheReasonWithout'),
  });
  if (wantsJson(deps)) printJson(deps.io, order);
  else say(deps.io, t('orders.declinedNowTheBuyer', { id: order.id, status: word('orderStatus', order.status) }));
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
    t('orders.isAOrderAnd', { id, deliveryMethod: word('deliveryMethod', order.deliveryMethod) }),
    t('orders.putItInFirst', { id }),
  );
}

/** A subscription or account waiting for delivery is delivered with the next charge day (docs/decisions.md). */
const needsNextCharge = (order: Order): boolean =>
  order.status === 'awaiting_delivery' && (NEEDS_NEXT_CHARGE as readonly string[]).includes(order.productType);

/** A day as the API writes it when the text is one (`26.12.2026` → `2026-12-26`), else the text as given. */
function dayOrAsGiven(text: string): string {
  const read = readDay(text);
  return 'value' in read ? read.value : text;
}

/** On a terminal: the next charge day, asked with its form shown and checked against the service's today. */
async function askNextCharge(deps: Deps, nowMs: number): Promise<string> {
  const today = isoDayOf(nowMs);
  const check = (text: string): true | string => {
    const read = readDay(text);
    if ('problem' in read) return read.problem;
    return nextChargeProblem(read.value, nowMs) ? t('typed.day.beforeToday', { text, today: day(today) }) : true;
  };
  return dayOrAsGiven(await deps.prompter.text(t('orders.nextChargeQuestion', { today: day(today) }), check));
}

/**
 * A delivery that failed where it may pass the next time (no answer, a 5xx after the retries): the
 * order read after the failure says whether it was delivered after all, or still waits. Rethrows
 * `error` with that line among its hints; as it was when the order cannot be read either.
 */
async function withOrderState(client: SellerClient, id: string, error: unknown): Promise<never> {
  if (!mayPassAgain(error)) throw error;
  const order = await client.orders.get(id, { maxRetries: 0 }).catch(() => undefined);
  if (order === undefined) throw error;
  const status = word('orderStatus', order.status);
  const state = order.status === 'delivered' ? t('orders.orderNow', { id, status }) : t('orders.orderNowUndelivered', { id, status });
  const { lines, exitCode } = describeError(error);
  const [first = '', ...rest] = lines;
  throw new CliError(withoutErrorPrefix(first), exitCode, [...rest, state].join('\n'), error);
}

export async function runOrdersDeliver(opts: DeliverOptions, deps: Deps): Promise<void> {
  if (opts.note !== undefined && opts.noteFile !== undefined) throw new UsageError(t('orders.useEitherNoteOr'));
  const client = deps.client();
  const text = opts.noteFile !== undefined ? chompNewline(await readTextInput(deps, opts.noteFile, '--note-file')) : opts.note;
  const noteText = text?.trim() ? text : undefined;
  // Checked offline before any change: a note with contacts would be withheld from a delivered order.
  refuseContacts(noteText, 'note', dropNoteHint(opts.noteFile !== undefined ? '--note-file' : '--note'));
  // The order read first also tells the service's today (its Date header) for the next charge day.
  const interactive = isInteractive(deps.io);
  const order = opts.withoutVault !== true || opts.nextCharge !== undefined || interactive ? await client.orders.get(opts.id) : undefined;
  // `26.12.2026` as well as `2026-12-26`; a text that is no day goes on to the check, which says so.
  let nextCharge = opts.nextCharge === undefined ? undefined : dayOrAsGiven(opts.nextCharge);
  if (nextCharge === undefined && interactive && order && needsNextCharge(order)) nextCharge = await askNextCharge(deps, serviceNowMs(client) ?? Date.now());
  refuseNextCharge(nextCharge, serviceNowMs(client) ?? Date.now());
  if (opts.withoutVault !== true && order) await checkVaultFilled(client, order);
  const answer = await withHints(client.orders.deliver(opts.id, { nextChargeDay: nextCharge, note: noteText }), {
    state_moved: stateMovedHint(opts.id),
    need_next_charge: t('orders.addNextChargeYyyy'),
  }).catch((error: unknown) => withOrderState(client, opts.id, error));
  if (wantsJson(deps)) printJson(deps.io, answer);
  else say(deps.io, t('orders.deliveredNow', { order: answer.order, status: word('orderStatus', answer.status) }));
  if (answer.noteRejected !== null) {
    warn(deps.io, t('orders.theOrderWasDelivered', { noteRejected: answer.noteRejected }));
    note(deps.io, t('orders.rewriteItWithoutContacts', { order: answer.order }));
  }
}

// ---------------------------------------------------------------------------------------------
// message, dispute-reply

/** Worded when used, in the language of that run (a module outlives a run in tests and `seller mcp`). */
const contactsHint = () => t('orders.removeEMailAddresses');

export async function runOrdersMessage(opts: TextOptions, deps: Deps): Promise<void> {
  const client = deps.client();
  const text = await textArg(deps, opts.text, '--text', t('orders.messageQuestion'));
  refuseContacts(text, 'message');
  const message = await withHints(client.orders.message(opts.id, { text }), {
    state_moved: stateMovedHint(opts.id),
    contacts: contactsHint(),
  });
  if (wantsJson(deps)) printJson(deps.io, message);
  else say(deps.io, t('orders.sentToTheBuyer', { message: message.id, order: opts.id }));
}

export async function runOrdersDisputeReply(opts: TextOptions, deps: Deps): Promise<void> {
  const client = deps.client();
  const text = await textArg(deps, opts.text, '--text', t('orders.disputeAnswerQuestion'));
  refuseContacts(text, 'answer');
  const order = await withHints(client.orders.disputeReply(opts.id, { text }), {
    not_disputed: t('orders.onlyADisputedOrder', { id: opts.id }),
    contacts: contactsHint(),
  });
  if (wantsJson(deps)) printJson(deps.io, order);
  else say(deps.io, t('orders.answeredTheDisputeOn', { id: order.id, status: word('orderStatus', order.status) }));
}
