/**
 * The seller's commands from the phone (issue 36, "Commands from the phone"): a text from an allowed
 * chat is read as a command (`/status`, `/pause`, `/deliver ORDER [DATE] TEXT`…, and the Russian
 * words beside the Latin ones where the seller's language is Russian: `/пауза`), a pressed button
 * as its act (`deliver:ORDER` asks for the text, then delivers). The acts on orders are the CLI's own
 * commands (`seller orders deliver|message`, `seller work-mode`), run with their output captured:
 * the phone reads what the terminal would, refusals worded from their data in the seller's language,
 * with the same offline checks (the contact filter, the next charge day, the vault rule).
 */
import { NEEDS_NEXT_CHARGE } from '../../sdk/contract/constants.ts';
import type { Autopilot } from '../../sdk/autopilot/runner.ts';
import type { SellerClient } from '../../sdk/client.ts';
import { t } from '../i18n/index.ts';
import { money, word } from '../i18n/format.ts';
import { createDeps, type Deps } from '../lib/deps.ts';
import { reportError } from '../lib/errors.ts';
import type { IO } from '../lib/io.ts';
import { readDay } from '../lib/typed-values.ts';
import { html, orderButtons, type Buttons } from './autopilot-phone-words.ts';

/** The commands, by their Latin names. */
export const PHONE_COMMANDS = ['status', 'orders', 'stock', 'pause', 'resume', 'deliver', 'reply', 'mode', 'help'] as const;
export type PhoneCommandName = (typeof PHONE_COMMANDS)[number];

export type PhoneCommand = { name: PhoneCommandName; args: string } | { name: 'unknown'; args: string };

/**
 * A text as a command: `/name args` (`/name@bot` too), the name Latin or the seller's language's
 * word for it (`autopilot.phone.aliases.*`); undefined when the text is no command. `/start`, which
 * Telegram sends first, is `help`.
 */
export function parsePhoneCommand(text: string): PhoneCommand | undefined {
  const match = /^\/([^\s@]+)(?:@\S+)?(?:\s+([\s\S]*))?$/u.exec(text.trim());
  if (!match) return undefined;
  const said = match[1]!.toLowerCase();
  const args = (match[2] ?? '').trim();
  if (said === 'start') return { name: 'help', args };
  const name = PHONE_COMMANDS.find((command) => command === said || t(`autopilot.phone.aliases.${command}`).toLowerCase() === said);
  return name ? { name, args } : { name: 'unknown', args };
}

/** `/deliver ORDER [DATE] TEXT` read: the order, a day when the second word is one (DD.MM.YYYY or YYYY-MM-DD), the rest the note. */
export function parseDeliverArgs(args: string): { order: string; day?: string; text: string } | undefined {
  const match = /^(\S+)(?:\s+([\s\S]*))?$/u.exec(args.trim());
  if (!match) return undefined;
  const rest = (match[2] ?? '').trim();
  const first = /^(\S+)(?:\s+([\s\S]*))?$/u.exec(rest);
  const read = first ? readDay(first[1]!) : undefined;
  if (read && 'value' in read) return { order: match[1]!, day: read.value, text: (first![2] ?? '').trim() };
  return { order: match[1]!, text: rest };
}

/** An answer to the phone. */
export interface PhoneAnswer {
  text: string;
  buttons?: Buttons | undefined;
}

/** What a command needs. */
export interface PhoneContext {
  autopilot: Autopilot;
  client: SellerClient;
  /** The run's deps (the environment the captured commands read). */
  deps: Deps;
  /** `notify.telegram.orderUrl`: the Timeline link's template. */
  orderUrl?: string | undefined;
}

/** Acts asked by a button and waiting for the person's text, by chat. */
export type Pending = Map<number, { act: 'deliver' | 'reply'; order: string }>;

/** Answers a command. */
export async function runPhoneCommand(command: PhoneCommand, ctx: PhoneContext): Promise<PhoneAnswer> {
  switch (command.name) {
    case 'status':
      return { text: await statusText(ctx) };
    case 'orders':
      return ordersAnswer(ctx);
    case 'stock':
      return { text: await stockText(ctx) };
    case 'pause': {
      if (ctx.autopilot.paused) return { text: t('autopilot.phone.alreadyPaused') };
      await ctx.autopilot.pause();
      return { text: t('autopilot.phone.pausedNow') };
    }
    case 'resume': {
      if (!ctx.autopilot.paused) return { text: t('autopilot.phone.notPaused') };
      const count = ctx.autopilot.held;
      await ctx.autopilot.resume();
      return { text: t('autopilot.phone.resumedNow', { count }) };
    }
    case 'deliver': {
      const read = parseDeliverArgs(command.args);
      if (!read) return { text: t('autopilot.phone.deliverUsage') };
      return deliver(ctx, read);
    }
    case 'reply': {
      const match = /^(\S+)\s+([\s\S]+)$/u.exec(command.args);
      if (!match) return { text: t('autopilot.phone.replyUsage') };
      return reply(ctx, match[1]!, match[2]!.trim());
    }
    case 'mode':
      return mode(ctx, command.args);
    case 'help':
      return { text: html(t('autopilot.phone.help')) };
    default:
      return { text: t('autopilot.phone.unknown') };
  }
}

/** A pressed button: Deliver and Reply ask for the text (the next message of the chat); undefined for data not ours. */
export async function pressed(data: string, chat: number, pending: Pending, ctx: PhoneContext): Promise<PhoneAnswer | undefined> {
  const match = /^(deliver|reply):(\S+)$/.exec(data);
  if (!match) return undefined;
  const act = match[1] as 'deliver' | 'reply';
  const order = match[2]!;
  pending.set(chat, { act, order });
  if (act === 'reply') return { text: t('autopilot.phone.askReply', { id: order }) };
  const read = await ctx.client.orders.get(order).catch(() => undefined);
  const dated = read !== undefined && (NEEDS_NEXT_CHARGE as readonly string[]).includes(read.productType);
  return { text: t(dated ? 'autopilot.phone.askDeliverDate' : 'autopilot.phone.askDeliver', { id: order }) };
}

/** Whether `order` waits for a delivery that needs its next charge day (a subscription, an account). */
const needsDay = <T extends { status: string; productType: string }>(order: T | undefined): order is T =>
  order !== undefined && order.status === 'awaiting_delivery' && (NEEDS_NEXT_CHARGE as readonly string[]).includes(order.productType);

/**
 * The text a button asked for: the act done with it. An answer to Deliver that lacks the next charge
 * day the order needs leaves the question open (the act put back in `again.pending` for its chat):
 * asked again, with why when its first word was meant as a day, and the next text answers it.
 */
export async function completed(act: { act: 'deliver' | 'reply'; order: string }, text: string, ctx: PhoneContext, again: { chat: number; pending: Pending }): Promise<PhoneAnswer> {
  if (act.act === 'reply') return reply(ctx, act.order, text.trim());
  const read = parseDeliverArgs(`${act.order} ${text}`)!;
  if (read.day === undefined && needsDay(await ctx.client.orders.get(act.order).catch(() => undefined))) {
    again.pending.set(again.chat, act);
    const first = text.trim().split(/\s+/)[0] ?? '';
    const problem = /^[\d.-]+$/.test(first) ? readDay(first) : undefined;
    const why = problem && 'problem' in problem ? `${problem.problem} ` : '';
    return { text: html(`${why}${t('autopilot.phone.askDateFirst', { id: act.order })}`) };
  }
  return deliver(ctx, read);
}

async function statusText(ctx: PhoneContext): Promise<string> {
  const { autopilot, client } = ctx;
  const waiting = (await client.orders.list({ status: 'awaiting_delivery', limit: 200 })).items.length;
  const lines = [t(autopilot.paused ? 'autopilot.phone.pausedState' : 'autopilot.phone.running'), t('autopilot.phone.waiting', { count: waiting })];
  if (autopilot.held > 0) lines.push(t('autopilot.phone.held', { count: autopilot.held }));
  lines.push('', await stockText(ctx), '', t('autopilot.phone.modeTitle'), await captured(ctx, async (deps) => (await import('./work-mode.ts')).runWorkModeShow({}, deps)));
  return lines.join('\n');
}

async function stockText(ctx: PhoneContext): Promise<string> {
  const { items } = await ctx.client.listings.list({ limit: 200 });
  if (items.length === 0) return t('autopilot.phone.noCards');
  const lines = items.map((card) => html(t('autopilot.phone.stockLine', { card: card.number, service: card.service, tariff: card.tariff, free: card.stock.free })));
  return [t('autopilot.phone.stockTitle'), ...lines].join('\n');
}

async function ordersAnswer(ctx: PhoneContext): Promise<PhoneAnswer> {
  const { items } = await ctx.client.orders.list({ needsAction: true, limit: 20 });
  if (items.length === 0) return { text: t('autopilot.phone.noOrders') };
  const lines = items.map((o) => html(t('autopilot.phone.orderLine', { id: o.id, number: o.number, productType: word('productType', o.productType), price: money(o.priceRub), status: word('orderStatus', o.status) })));
  const buttons = items.flatMap((o) => orderButtons(o.id, { deliver: o.status === 'awaiting_delivery', orderUrl: ctx.orderUrl }).map((row) => row.map((b) => ({ ...b, text: `${b.text} ${o.id}` }))));
  return { text: [t('autopilot.phone.ordersTitle'), ...lines].join('\n'), buttons };
}

/**
 * `/deliver`: the note's contacts refused offline first (as the CLI does, with the phone's hint),
 * then a subscription or account asked for its next charge day, a code or credentials order whose
 * vault is empty told the vault command to use; then `seller orders deliver`, its answer read back.
 */
async function deliver(ctx: PhoneContext, read: { order: string; day?: string | undefined; text: string }): Promise<PhoneAnswer> {
  const note = read.text === '' ? undefined : read.text;
  const { refuseContacts } = await import('../lib/guards.ts');
  const refused = await captured(ctx, async () => refuseContacts(note, 'note', t('autopilot.phone.dropNote', { id: read.order })));
  if (refused !== '') return { text: refused };
  const order = await ctx.client.orders.get(read.order).catch(() => undefined);
  const waiting = order !== undefined && order.status === 'awaiting_delivery';
  if (read.day === undefined && needsDay(order)) {
    return { text: html(t('autopilot.phone.needsDate', { id: order.id, productType: word('productType', order.productType) })) };
  }
  const { runOrdersDeliver, VAULT_METHODS } = await import('./orders.ts');
  if (waiting && VAULT_METHODS.includes(order.deliveryMethod)) {
    const vaults = await ctx.client.orders.vaults(order.id).catch(() => undefined);
    if (vaults !== undefined && !vaults.items.some((v) => v.side === 'own')) {
      return { text: html(t('autopilot.phone.needsVault', { id: order.id, deliveryMethod: word('deliveryMethod', order.deliveryMethod) })) };
    }
  }
  return { text: await captured(ctx, (deps) => runOrdersDeliver({ id: read.order, nextCharge: read.day, note }, deps)) };
}

async function reply(ctx: PhoneContext, order: string, text: string): Promise<PhoneAnswer> {
  const { runOrdersMessage } = await import('./orders.ts');
  return { text: await captured(ctx, (deps) => runOrdersMessage({ id: order, text }, deps)) };
}

async function mode(ctx: PhoneContext, args: string): Promise<PhoneAnswer> {
  const { runWorkModeShow, runWorkModeSet, parseCapacity } = await import('./work-mode.ts');
  const words = args.split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) return { text: await captured(ctx, (deps) => runWorkModeShow({}, deps)) };
  const [field, value] = words;
  if (words.length === 2 && field === 'capacity') {
    return { text: await captured(ctx, async (deps) => {
      const capacity = parseCapacity(value!);
      await runWorkModeSet({ capacity: capacity === 'none' ? null : capacity }, deps);
    }) };
  }
  if (words.length === 2 && field === 'dnd' && (value === 'on' || value === 'off')) return { text: await captured(ctx, (deps) => runWorkModeSet({ dnd: value === 'on' }, deps)) };
  return { text: t('autopilot.phone.modeUsage') };
}

/**
 * Runs a CLI command with its output captured (no terminal: nothing is asked), on the autopilot's
 * client; a failure is worded as the CLI words it. Answers the text, unpadded and HTML-escaped.
 */
async function captured(ctx: PhoneContext, run: (deps: Deps) => Promise<void>): Promise<string> {
  let out = '';
  const sink = { write: (text: string) => (out += text) };
  const io: IO = { stdin: process.stdin, stdout: sink, stderr: sink, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, env: { ...ctx.deps.io.env, NO_COLOR: '1' } };
  const deps = createDeps(io, { ...ctx.deps.globals, json: false }, { client: () => ctx.client });
  try {
    await run(deps);
  } catch (error) {
    reportError(io, error);
  }
  // A phone's font is proportional: the terminal's padded `Label:   value` columns read as one space.
  return html(out.trim().replace(/:[ ]{2,}/g, ': '));
}
