/**
 * `seller sandbox …` verbs of the inspector's operations (sdk/contract/sandbox-inspect.ts): what a
 * local `seller-server` holds, read with the admin token, and the acts the inspector page has:
 *
 *   seller sandbox seller list                 sellers: status, admission, key prefixes, counts
 *   seller sandbox card list <sellerId>        a seller's cards with stock counts
 *   seller sandbox card create <sellerId> --service S --tariff T --price R --sla M --guarantee D
 *   seller sandbox card refill <number> --count N   N generated units (never shown)
 *   seller sandbox card on|off <number> [--auto]
 *   seller sandbox orders <sellerId> [--status S]
 *   seller sandbox timeline <order>            moves, deadline, note, vaults (never contents)
 *   seller sandbox hooks <sellerId>            the subscription (never its secret), the probe receiver
 *   seller sandbox deliveries <sellerId>       every delivery with its attempts
 *   seller sandbox resend <sellerId> <delivery>
 *   seller sandbox inbox <sellerId>            what the probe receiver got
 *   seller sandbox watch [--seller ID]         the live change stream (`--json`: one event a line)
 *
 * `--json` prints the answer as the server sent it; text for people goes through the catalogues.
 */
import { Argument, Option, type Command } from 'commander';
import { DELIVERY_METHODS, PRODUCT_TYPES } from '../../sdk/contract/constants.ts';
import { ORDER_STATUSES, type OrderStatus } from '../../sdk/contract/enums.ts';
import type { ChangeEventRead } from '../../sdk/sandbox-changes.ts';
import { dateTime, rubles, word } from '../i18n/format.ts';
import { t, tOr } from '../i18n/index.ts';
import { positiveInt, type App } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { note, printFields, printJson, printTable, say } from '../lib/output.ts';
import { nonNegativeIntArg } from './cards-create.ts';
import { withHints } from './orders-common.ts';
import type { SandboxClient } from '../../sdk/sandbox.ts';

/** Makes the sandbox client of a run (cli/commands/sandbox.ts `sandboxClient`; passed in, so this file does not import it back). */
export type ClientOf = (deps: Deps, use?: { stream?: boolean }) => SandboxClient;

export function registerInspect(noun: Command, app: App, clientOf: ClientOf): void {
  const seller = noun.commands.find((c) => c.name() === 'seller') ?? noun.command('seller');
  seller.command('list').description(t('sandboxInspect.sellerList')).action(app.run(() => ({}), (o, deps) => runSellerList(o, deps, clientOf)));

  const card = noun.command('card').description(t('sandboxInspect.card'));
  card.command('list').description(t('sandboxInspect.cardList')).argument('<sellerId>', t('sandboxInspect.sellerId')).action(app.run((sellerId: string) => ({ sellerId }), (o, deps) => runCardList(o, deps, clientOf)));
  card
    .command('create')
    .description(t('sandboxInspect.cardCreate'))
    .argument('<sellerId>', t('sandboxInspect.sellerId'))
    .requiredOption('--service <slug>', t('sandboxInspect.service'))
    .requiredOption('--tariff <slug>', t('cardsCreate.tariffOfThePosition'))
    .requiredOption('--price <rub>', t('cardsCreate.priceInWholeRoubles'), positiveInt)
    .requiredOption('--sla <minutes>', t('cardsCreate.deliveryTimeInMinutes'), positiveInt)
    .requiredOption('--guarantee <days>', t('cardsCreate.guaranteeInDaysOne'), nonNegativeIntArg)
    .addOption(new Option('--type <type>', t('cardsCreate.productType')).choices(PRODUCT_TYPES).default('code'))
    .addOption(new Option('--method <method>', t('cardsCreate.deliveryMethod')).choices(DELIVERY_METHODS).default('code'))
    .action(app.run((sellerId: string, o: NewCardFlags) => ({ sellerId, ...o }), (o, deps) => runCardCreate(o, deps, clientOf)));
  card
    .command('refill')
    .description(t('sandboxInspect.cardRefill'))
    .argument('<number>', t('sandboxInspect.cardNumber'), positiveInt)
    .requiredOption('--count <n>', t('sandboxInspect.count'), positiveInt)
    .action(app.run((number: number, o: { count: number }) => ({ number, count: o.count }), (o, deps) => runRefill(o, deps, clientOf)));
  for (const state of ['on', 'off'] as const) {
    const command = card
      .command(state)
      .description(t(`sandboxInspect.card_${state}`))
      .argument('<number>', t('sandboxInspect.cardNumber'), positiveInt);
    if (state === 'on') command.option('--auto', t('sandboxInspect.auto'));
    command.action(app.run((number: number, o: { auto?: boolean }) => ({ number, active: state === 'on', auto: o.auto === true }), (o, deps) => runCardState(o, deps, clientOf)));
  }

  noun
    .command('orders')
    .description(t('sandboxInspect.orders'))
    .argument('<sellerId>', t('sandboxInspect.sellerId'))
    .addOption(new Option('--status <status>', t('sandboxInspect.status')).choices(ORDER_STATUSES))
    .action(app.run((sellerId: string, o: { status?: OrderStatus }) => ({ sellerId, status: o.status }), (o, deps) => runOrders(o, deps, clientOf)));
  noun.command('timeline').description(t('sandboxInspect.timeline')).argument('<order>', t('sandboxInspect.orderId')).action(app.run((id: string) => ({ id }), (o, deps) => runTimeline(o, deps, clientOf)));
  noun.command('hooks').description(t('sandboxInspect.hooks')).argument('<sellerId>', t('sandboxInspect.sellerId')).action(app.run((sellerId: string) => ({ sellerId }), (o, deps) => runHooks(o, deps, clientOf)));
  noun.command('deliveries').description(t('sandboxInspect.deliveries')).argument('<sellerId>', t('sandboxInspect.sellerId')).action(app.run((sellerId: string) => ({ sellerId }), (o, deps) => runDeliveries(o, deps, clientOf)));
  noun
    .command('resend')
    .description(t('sandboxInspect.resend'))
    .argument('<sellerId>', t('sandboxInspect.sellerId'))
    .addArgument(new Argument('<delivery>', t('sandboxInspect.deliveryId')))
    .action(app.run((sellerId: string, id: string) => ({ sellerId, id }), (o, deps) => runResend(o, deps, clientOf)));
  noun.command('inbox').description(t('sandboxInspect.inbox')).argument('<sellerId>', t('sandboxInspect.sellerId')).action(app.run((sellerId: string) => ({ sellerId }), (o, deps) => runInbox(o, deps, clientOf)));
  noun
    .command('watch')
    .description(t('sandboxInspect.watch'))
    .option('--seller <sellerId>', t('sandboxInspect.watchSeller'))
    .action(app.run((o: { seller?: string }) => ({ sellerId: o.seller }), (o, deps) => runWatch(o, deps, clientOf)));
}

/** The orders a clock advance moved, one line each on stderr (`seller sandbox clock advance 2h`: stdout keeps the time alone). */
export function printMoved(deps: Deps, moved: readonly { order: string; from: string; to: string }[] | undefined): void {
  for (const m of moved ?? []) note(deps.io, t('sandboxInspect.clockMoved', { id: m.order, from: word('orderStatus', m.from), to: word('orderStatus', m.to) }));
}

const yesNo = (on: boolean) => t(on ? 'words.yes' : 'words.no');

export async function runSellerList(_opts: object, deps: Deps, clientOf: ClientOf): Promise<void> {
  const page = await clientOf(deps).listSellers({ limit: 200 });
  if (wantsJson(deps)) {
    printJson(deps.io, page);
    return;
  }
  printTable(deps.io, page.items, [
    { header: t('sandboxInspect.h.seller'), value: (s) => s.sellerId },
    { header: t('sandboxInspect.h.status'), value: (s) => word('sellerStatus', s.status) },
    { header: t('sandboxInspect.h.mode'), value: (s) => word('keyMode', s.mode) },
    { header: t('sandboxInspect.h.admission'), value: (s) => t(s.admission.complete ? 'words.complete' : 'words.incomplete') },
    { header: t('sandboxInspect.h.keys'), value: (s) => s.keys.filter((k) => !k.revoked).map((k) => `${k.prefix}… (${k.scopes.join(' ')})`) },
    { header: t('sandboxInspect.h.cards'), value: (s) => s.cards },
    { header: t('sandboxInspect.h.orders'), value: (s) => s.orders },
  ]);
}

export async function runCardList(opts: { sellerId: string }, deps: Deps, clientOf: ClientOf): Promise<void> {
  const page = await clientOf(deps).sellerCards(opts.sellerId, { limit: 200 });
  if (wantsJson(deps)) {
    printJson(deps.io, page);
    return;
  }
  printTable(deps.io, page.items, [
    { header: t('sandboxInspect.h.number'), value: (c) => c.number },
    { header: t('sandboxInspect.h.service'), value: (c) => `${c.service}/${c.tariff}` },
    { header: t('sandboxInspect.h.price'), value: (c) => rubles(c.priceRub) },
    { header: t('sandboxInspect.h.on'), value: (c) => yesNo(c.isActive) },
    { header: t('sandboxInspect.h.test'), value: (c) => yesNo(c.isTest) },
    { header: t('sandboxInspect.h.auto'), value: (c) => yesNo(c.autoIssue) },
    { header: t('sandboxInspect.h.free'), value: (c) => c.stock.free },
    { header: t('sandboxInspect.h.issued'), value: (c) => c.stock.issued },
  ]);
}

interface NewCardFlags {
  service: string;
  tariff: string;
  price: number;
  sla: number;
  guarantee: number;
  type: (typeof PRODUCT_TYPES)[number];
  method: (typeof DELIVERY_METHODS)[number];
}

/** A card for a seller, as the page's form makes it (switched off; `card on` switches it on). */
export async function runCardCreate(opts: NewCardFlags & { sellerId: string }, deps: Deps, clientOf: ClientOf): Promise<void> {
  const body = { service: opts.service, tariff: opts.tariff, productType: opts.type, deliveryMethod: opts.method, priceRub: opts.price, slaMinutes: opts.sla, guaranteeDays: opts.guarantee };
  const card = await clientOf(deps).createCard(opts.sellerId, body);
  if (wantsJson(deps)) printJson(deps.io, card);
  else say(deps.io, t('cardsCreate.created', { number: card.number }));
}

/** The seller's subscription as the page shows it: address, events, state, failures in a row, the probe receiver. */
export async function runHooks(opts: { sellerId: string }, deps: Deps, clientOf: ClientOf): Promise<void> {
  const hooks = await clientOf(deps).sellerHooks(opts.sellerId);
  if (wantsJson(deps)) {
    printJson(deps.io, hooks);
    return;
  }
  if (!hooks.url) note(deps.io, t('sandboxInspect.noHooks'));
  printFields(deps.io, [
    [t('sandboxInspect.f.url'), hooks.url],
    [t('sandboxInspect.f.events'), hooks.events],
    [t('sandboxInspect.f.hookStatus'), hooks.url ? tOr(`hooks.statuses.${hooks.status}`, hooks.status) : null],
    [t('sandboxInspect.f.failures'), hooks.url ? hooks.failures : null],
    [t('sandboxInspect.f.probe'), hooks.probeUrl],
  ]);
}

export async function runRefill(opts: { number: number; count: number }, deps: Deps, clientOf: ClientOf): Promise<void> {
  const answer = await clientOf(deps).refill(opts.number, { count: opts.count });
  if (wantsJson(deps)) printJson(deps.io, answer);
  else say(deps.io, t('sandboxInspect.refilled', { number: answer.number, count: answer.added, free: answer.free }));
}

export async function runCardState(opts: { number: number; active: boolean; auto: boolean }, deps: Deps, clientOf: ClientOf): Promise<void> {
  const body = { active: opts.active, ...(opts.auto ? { autoIssue: true } : opts.active ? {} : { autoIssue: false }) };
  const answer = await withHints(clientOf(deps).setCardState(opts.number, body), {
    stock_empty: t('sandboxInspect.hints.stockEmpty', { number: opts.number }),
  });
  if (wantsJson(deps)) printJson(deps.io, answer);
  else say(deps.io, t(answer.isActive ? (answer.autoIssue ? 'sandboxInspect.cardOnAuto' : 'sandboxInspect.cardOn') : 'sandboxInspect.cardOff', { number: answer.number }));
}

export async function runOrders(opts: { sellerId: string; status?: OrderStatus | undefined }, deps: Deps, clientOf: ClientOf): Promise<void> {
  const page = await clientOf(deps).sellerOrders(opts.sellerId, { status: opts.status, limit: 200 });
  if (wantsJson(deps)) {
    printJson(deps.io, page);
    return;
  }
  printTable(deps.io, page.items, [
    { header: t('sandboxInspect.h.order'), value: (o) => o.id },
    { header: t('sandboxInspect.h.number'), value: (o) => o.number },
    { header: t('sandboxInspect.h.status'), value: (o) => word('orderStatus', o.status) },
    { header: t('sandboxInspect.h.price'), value: (o) => rubles(o.priceRub) },
    { header: t('sandboxInspect.h.created'), value: (o) => dateTime(o.createdAt) },
  ]);
}

export async function runTimeline(opts: { id: string }, deps: Deps, clientOf: ClientOf): Promise<void> {
  const tl = await clientOf(deps).orderTimeline(opts.id);
  if (wantsJson(deps)) {
    printJson(deps.io, tl);
    return;
  }
  printFields(deps.io, [
    [t('sandboxInspect.f.order'), tl.order.id],
    [t('sandboxInspect.f.seller'), tl.sellerId],
    [t('sandboxInspect.f.status'), word('orderStatus', tl.order.status)],
    [t('sandboxInspect.f.created'), dateTime(tl.order.createdAt)],
    [t('sandboxInspect.f.deadline'), tl.deadline ? t(`sandboxInspect.deadline_${tl.deadline.kind}`, { at: dateTime(tl.deadline.at) }) : null],
    [t('sandboxInspect.f.note'), tl.note],
    [t('sandboxInspect.f.noteRejected'), tl.noteRejected],
    [t('sandboxInspect.f.vaults'), vaultText(tl.vaults)],
    [t('sandboxInspect.f.moves'), tl.sandboxMoves.map((move) => tOr(`sandboxInspect.moveWords.${move}`, move))],
  ]);
  for (const move of tl.moves) {
    say(deps.io, t('sandboxInspect.move', { at: dateTime(move.at), from: word('orderStatus', move.from), to: word('orderStatus', move.to), by: t(`sandboxInspect.by.${move.by}`) }));
  }
  for (const m of tl.messages) say(deps.io, t('sandboxInspect.message', { at: dateTime(m.at), from: word('messageFrom', m.from), text: m.text }));
}

function vaultText(vaults: { seller: { opened: boolean } | null; buyer: { opened: boolean } | null }): string[] {
  const out: string[] = [];
  for (const side of ['seller', 'buyer'] as const) {
    const v = vaults[side];
    if (v) out.push(t(v.opened ? `sandboxInspect.vault_${side}_opened` : `sandboxInspect.vault_${side}`));
  }
  return out;
}

export async function runDeliveries(opts: { sellerId: string }, deps: Deps, clientOf: ClientOf): Promise<void> {
  const page = await clientOf(deps).sellerDeliveries(opts.sellerId, { limit: 200 });
  if (wantsJson(deps)) {
    printJson(deps.io, page);
    return;
  }
  printTable(deps.io, page.items, [
    { header: t('sandboxInspect.h.delivery'), value: (d) => d.id },
    { header: t('sandboxInspect.h.event'), value: (d) => d.event },
    { header: t('sandboxInspect.h.attempts'), value: (d) => d.attemptLog.map((a) => `${a.attempt}:${a.status ?? a.error ?? '-'}`) },
    { header: t('sandboxInspect.h.delivered'), value: (d) => dateTime(d.deliveredAt) },
    { header: t('sandboxInspect.h.next'), value: (d) => dateTime(d.nextAttemptAt) },
  ]);
}

export async function runResend(opts: { sellerId: string; id: string }, deps: Deps, clientOf: ClientOf): Promise<void> {
  const d = await withHints(clientOf(deps).resendDelivery(opts.sellerId, opts.id), { state_moved: t('sandboxInspect.hints.hooksOff') });
  if (wantsJson(deps)) {
    printJson(deps.io, d);
    return;
  }
  const last = d.attemptLog.at(-1);
  say(deps.io, t('sandboxInspect.resent', { id: d.id, attempt: d.attempts, status: last?.status ?? last?.error ?? '-' }));
}

export async function runInbox(opts: { sellerId: string }, deps: Deps, clientOf: ClientOf): Promise<void> {
  const inbox = await clientOf(deps).probeInbox(opts.sellerId);
  if (wantsJson(deps)) {
    printJson(deps.io, inbox);
    return;
  }
  if (inbox.url === null) note(deps.io, t('sandboxInspect.noProbe'));
  printTable(deps.io, inbox.items, [
    { header: t('sandboxInspect.h.received'), value: (h) => dateTime(h.receivedAt) },
    { header: t('sandboxInspect.h.event'), value: (h) => h.headers['x-service-event'] },
    { header: t('sandboxInspect.h.delivery'), value: (h) => h.headers['x-service-delivery'] },
  ]);
}

/** One change for people: what changed, on which record; `null` for the events not worth a line (ready). */
export function changeLine(event: ChangeEventRead): string | null {
  const e = event as ChangeEventRead & Record<string, any>;
  switch (e.type) {
    case 'ready':
      return null;
    case 'order':
      return e.change === 'status'
        ? // The move this event reports, from its own before to its own after (`to`; an older server's: the order as sent).
          t('sandboxInspect.watchOrderMoved', { id: e.order.id, from: word('orderStatus', e.from ?? ''), to: word('orderStatus', e.to ?? e.order.status), by: t(`sandboxInspect.by.${e.by}`) })
        : t(e.change === 'created' ? 'sandboxInspect.watchOrderNew' : 'sandboxInspect.watchOrderChanged', { id: e.order.id, number: e.order.number, status: word('orderStatus', e.order.status) });
    case 'card':
      return t(e.card ? 'sandboxInspect.watchCard' : 'sandboxInspect.watchCardGone', { number: e.number, free: e.card?.stock.free, on: e.card ? yesNo(e.card.isActive) : '' });
    case 'delivery':
      return t('sandboxInspect.watchDelivery', { id: e.delivery.id, event: e.delivery.event, attempts: e.delivery.attempts, status: e.delivery.lastStatus ?? e.delivery.lastError ?? '-' });
    case 'clock':
      return t('sandboxInspect.watchClock', { now: dateTime(e.now), count: e.moved.length });
    default:
      return t('sandboxInspect.watchOther', { type: e.type, sellerId: e.sellerId ?? '-' });
  }
}

export async function runWatch(opts: { sellerId?: string | undefined }, deps: Deps, clientOf: ClientOf): Promise<void> {
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    for await (const event of clientOf(deps, { stream: true }).changes({ sellerId: opts.sellerId, signal: stop.signal })) {
      if (wantsJson(deps)) {
        deps.io.stdout.write(`${JSON.stringify(event)}\n`);
        continue;
      }
      if (event.type === 'ready') note(deps.io, t('sandboxInspect.watching'));
      const line = changeLine(event);
      if (line !== null) say(deps.io, line);
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
