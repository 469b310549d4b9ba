/**
 * What a bot's message is made of, read from a Bot API call as Telegram reads it: the text with
 * `parse_mode` (HTML only; html.ts) or `entities`, and the inline keyboard of `reply_markup`.
 * Other keyboards (`keyboard`, `remove_keyboard`, `force_reply`) are taken and leave no buttons.
 */
import { parseHtml, type MessageEntity } from './html.ts';
import { badRequest, json, str, type Params } from './params.ts';
import type { InlineButton } from './state.ts';

export const TEXT_MAX = 4096;
export const CAPTION_MAX = 1024;
const CALLBACK_DATA_MAX = 64;

/** The text of `field` (`text`, `caption`) with its entities; `required`: an empty one is refused. */
export function composeText(p: Params, field: 'text' | 'caption', required: boolean): { text: string; entities: MessageEntity[] } {
  const raw = str(p, field) ?? '';
  const mode = str(p, field === 'text' ? 'parse_mode' : 'parse_mode');
  let out: { text: string; entities: MessageEntity[] };
  if (mode === undefined || mode === '') {
    const given = json(p, field === 'text' ? 'entities' : 'caption_entities');
    out = { text: raw, entities: Array.isArray(given) ? (given as MessageEntity[]) : [] };
  } else if (mode.toLowerCase() === 'html') {
    const parsed = parseHtml(raw);
    if ('error' in parsed) throw badRequest(parsed.error);
    out = parsed;
  } else {
    throw badRequest(`unsupported parse_mode "${mode}": the sandbox's Telegram reads HTML only`);
  }
  if (required && out.text.trim() === '') throw badRequest('message text is empty');
  const max = field === 'text' ? TEXT_MAX : CAPTION_MAX;
  if (out.text.length > max) throw badRequest(field === 'text' ? 'message is too long' : 'message caption is too long');
  return out;
}

/** The inline keyboard of `reply_markup` (empty when there is none, or another kind of keyboard). */
export function inlineKeyboard(p: Params): InlineButton[][] {
  const markup = json(p, 'reply_markup');
  if (markup === undefined) return [];
  if (typeof markup !== 'object' || markup === null || Array.isArray(markup)) throw badRequest('object expected as reply markup');
  const rows = (markup as { inline_keyboard?: unknown }).inline_keyboard;
  if (rows === undefined) return [];
  if (!Array.isArray(rows) || rows.some((row) => !Array.isArray(row))) throw badRequest("field \"inline_keyboard\" of the InlineKeyboardMarkup must be an Array of Arrays");
  return rows.filter((row: unknown[]) => row.length > 0).map((row: unknown[]) => row.map(button));
}

function button(value: unknown): InlineButton {
  const b = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (typeof b.text !== 'string' || b.text === '') throw badRequest("can't parse inline keyboard button: Field \"text\" must be of type String");
  if (typeof b.callback_data === 'string') {
    const bytes = Buffer.byteLength(b.callback_data);
    if (bytes < 1 || bytes > CALLBACK_DATA_MAX) throw badRequest('BUTTON_DATA_INVALID');
    return { text: b.text, callback_data: b.callback_data };
  }
  if (typeof b.url === 'string') {
    if (!validUrl(b.url)) throw badRequest(`inline keyboard button URL '${b.url}' is invalid: Wrong HTTP URL`);
    return { text: b.text, url: b.url };
  }
  throw badRequest("can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard");
}

/** A link Telegram puts on a button: http(s) to a host with a dot (never `localhost`), or `tg://`. */
function validUrl(text: string): boolean {
  if (text.startsWith('tg://')) return true;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.includes('.');
  } catch {
    return false;
  }
}
