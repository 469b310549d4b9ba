/**
 * What the seller's phone reads: an autopilot event as one Telegram message (HTML), in the seller's
 * language from the catalogue (the same forms as the terminal lines, autopilot-lines.ts), with the
 * buttons an act fits: an order that needs a hand gets Deliver and Reply (callback data
 * `deliver:ORDER`, `reply:ORDER`, which the phone's commands read back, autopilot-phone.ts).
 */
import { t } from '../i18n/index.ts';
import type { AutopilotEvent } from '../../sdk/autopilot/events.ts';
import { eventMessage } from './autopilot-lines.ts';

/** A button row of an inline keyboard, as the Bot API takes it. */
export type Buttons = Array<Array<{ text: string; callback_data: string }>>;

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

/** The buttons of an order: Deliver (when it may be delivered by hand) and Reply. */
export function orderButtons(order: string, deliver: boolean): Buttons {
  return [[...(deliver ? [{ text: t('autopilot.phone.buttons.deliver'), callback_data: `deliver:${order}` }] : []), { text: t('autopilot.phone.buttons.reply'), callback_data: `reply:${order}` }]];
}

/** An event as a message: its line in the seller's language, the order id in bold, and the buttons that fit. */
export function phoneMessage(event: AutopilotEvent): PhoneMessage {
  const key = `${event.rule}.${event.type}`;
  const line = html(eventMessage(event));
  const order = event.order;
  const text = order !== undefined ? line.replace(html(order), `<b>${html(order)}</b>`) : line;
  if (order === undefined || (!ACTS.has(key) && !TALKS.has(key))) return { text };
  return { text, buttons: orderButtons(order, ACTS.has(key)) };
}
