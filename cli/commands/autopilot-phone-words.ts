/**
 * What the seller's phone reads: an autopilot event as one Telegram message (HTML), in the seller's
 * language from the catalogue (the same forms as the terminal lines, autopilot-lines.ts), with the
 * buttons an act fits: an order that needs a hand gets Deliver and Reply (callback data
 * `deliver:ORDER`, `reply:ORDER`, which the phone's commands read back, autopilot-phone.ts), and
 * every message about an order a Timeline link when the config has `notify.telegram.orderUrl`.
 */
import { t } from '../i18n/index.ts';
import { orderLink } from '../../sdk/autopilot/config.ts';
import type { AutopilotEvent } from '../../sdk/autopilot/events.ts';
import { eventMessage } from './autopilot-lines.ts';

/** A button of an inline keyboard, as the Bot API takes it: an act (its callback data) or a link. */
export type Button = { text: string; callback_data: string } | { text: string; url: string };
/** An inline keyboard, row by row. */
export type Buttons = Button[][];

export interface PhoneMessage {
  /** HTML (`parse_mode: 'HTML'`). */
  text: string;
  buttons?: Buttons | undefined;
}

/** Events about an order a person may act on by hand. */
const ACTS = new Set(['orders.needs-hand', 'deliver.failed', 'deliver.refused', 'deadline.warned', 'deadline.missed', 'deliver.held']);
const TALKS = new Set(['deadline.dispute', 'orders.disputed']);

/** Text for Telegram's HTML: `<`, `>`, `&` escaped. */
export const html = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The buttons of an order: Deliver (when it may be delivered by hand) and Reply, when it `acts`;
 * a Timeline link when `orderUrl` (the config's template) is given. Empty: none.
 */
export function orderButtons(order: string, { acts = true, deliver = false, orderUrl }: { acts?: boolean; deliver?: boolean; orderUrl?: string | undefined }): Buttons {
  const row: Button[] = [];
  if (acts && deliver) row.push({ text: t('autopilot.phone.buttons.deliver'), callback_data: `deliver:${order}` });
  if (acts) row.push({ text: t('autopilot.phone.buttons.reply'), callback_data: `reply:${order}` });
  if (orderUrl !== undefined) row.push({ text: t('autopilot.phone.buttons.timeline'), url: orderLink(orderUrl, order) });
  return row.length === 0 ? [] : [row];
}

/** An event as a message: its line in the seller's language, the order id in bold, and the buttons that fit (`orderUrl`: the Timeline link's template). */
export function phoneMessage(event: AutopilotEvent, orderUrl?: string): PhoneMessage {
  const key = `${event.rule}.${event.type}`;
  const line = html(eventMessage(event));
  const order = event.order;
  const text = order !== undefined ? line.replace(html(order), `<b>${html(order)}</b>`) : line;
  if (order === undefined) return { text };
  const buttons = orderButtons(order, { acts: ACTS.has(key) || TALKS.has(key), deliver: ACTS.has(key), orderUrl });
  return buttons.length === 0 ? { text } : { text, buttons };
}
