/**
 * Telegram's `parse_mode: HTML`, as the Bot API reads it: the tags it knows become message entities
 * over the plain text (offsets and lengths in UTF-16 code units, as Telegram counts them), the four
 * named HTML entities and numeric ones are decoded, and anything else is refused with Telegram's own
 * words (`can't parse entities: …`), so that a sender who forgets to escape `<` in a card's title
 * learns it in the sandbox, not from the seller's silent phone.
 */

export interface MessageEntity {
  type: string;
  offset: number;
  length: number;
  url?: string;
  language?: string;
}

/** The tags Telegram's HTML knows, and the entity each makes. */
const TAGS: Record<string, string> = {
  b: 'bold',
  strong: 'bold',
  i: 'italic',
  em: 'italic',
  u: 'underline',
  ins: 'underline',
  s: 'strikethrough',
  strike: 'strikethrough',
  del: 'strikethrough',
  code: 'code',
  pre: 'pre',
  a: 'text_link',
  'tg-spoiler': 'spoiler',
  span: 'spoiler',
  blockquote: 'blockquote',
  'tg-emoji': 'custom_emoji',
};

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

interface Open {
  name: string;
  entity: MessageEntity | undefined;
}

/** The text and its entities, or Telegram's description of why the HTML cannot be read. */
export function parseHtml(source: string): { text: string; entities: MessageEntity[] } | { error: string } {
  let text = '';
  const entities: MessageEntity[] = [];
  const stack: Open[] = [];
  const byteOffset = (at: number) => Buffer.byteLength(source.slice(0, at));
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === '&') {
      const m = /^&(?:#x([0-9a-fA-F]{1,6})|#(\d{1,7})|([a-zA-Z]+));/.exec(source.slice(i, i + 12));
      const decoded = m ? (m[1] ? codePoint(parseInt(m[1], 16)) : m[2] ? codePoint(Number(m[2])) : NAMED[m[3]!.toLowerCase()]) : undefined;
      // An `&` that starts no entity Telegram knows is kept as it is.
      if (m && decoded !== undefined) {
        text += decoded;
        i += m[0].length;
      } else {
        text += c;
        i += 1;
      }
      continue;
    }
    if (c !== '<') {
      text += c;
      i += 1;
      continue;
    }
    const end = source.indexOf('>', i);
    if (end < 0) return { error: `can't parse entities: Can't find end of the entity starting at byte offset ${byteOffset(i)}` };
    const tag = source.slice(i + 1, end);
    if (tag.startsWith('/')) {
      const name = tag.slice(1).trim().toLowerCase();
      const open = stack.pop();
      if (!open) return { error: `can't parse entities: Unexpected end tag at byte offset ${byteOffset(i)}` };
      if (open.name !== name) return { error: `can't parse entities: Unmatched end tag at byte offset ${byteOffset(i)}, expected "</${open.name}>", found "</${name}>"` };
      if (open.entity) {
        open.entity.length = text.length - open.entity.offset;
        if (open.entity.length > 0) entities.push(open.entity);
      }
    } else {
      const m = /^([a-zA-Z][a-zA-Z0-9-]*)(\s[^]*)?$/.exec(tag);
      const name = m?.[1]!.toLowerCase();
      if (!m || name === undefined || !(name in TAGS)) return { error: `can't parse entities: Unsupported start tag "${tag.split(/\s/)[0]}" at byte offset ${byteOffset(i)}` };
      const attrs = attributes(m[2] ?? '');
      stack.push({ name, entity: entityOf(name, attrs, text.length) });
    }
    i = end + 1;
  }
  const left = stack.pop();
  if (left) return { error: `can't parse entities: Can't find end tag corresponding to start tag "${left.name}"` };
  entities.sort((a, b) => a.offset - b.offset || b.length - a.length);
  return { text, entities };
}

function codePoint(n: number): string | undefined {
  return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : undefined;
}

function attributes(source: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of source.matchAll(/([a-zA-Z-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/g)) {
    out[m[1]!.toLowerCase()] = m[2] ?? m[3] ?? m[4] ?? '';
  }
  return out;
}

function entityOf(name: string, attrs: Record<string, string>, offset: number): MessageEntity | undefined {
  const type = TAGS[name]!;
  if (name === 'span' && attrs.class !== 'tg-spoiler') return undefined;
  if (name === 'a') return attrs.href ? { type, offset, length: 0, url: attrs.href } : undefined;
  if (name === 'code' && attrs.class?.startsWith('language-')) return { type: 'pre', offset, length: 0, language: attrs.class.slice('language-'.length) };
  return { type, offset, length: 0 };
}

/**
 * The `bot_command` entities Telegram finds in a person's text: `/word` (Latin letters, digits and
 * `_`, up to 32, optionally `@botname`) at the start or after a space. A Cyrillic `/пауза` is no
 * command to Telegram: a bot reads it from the text.
 */
export function commandEntities(text: string): MessageEntity[] {
  const out: MessageEntity[] = [];
  for (const m of text.matchAll(/(?<=^|\s)\/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?(?=$|[\s.,!?;:])/g)) {
    out.push({ type: 'bot_command', offset: m.index, length: m[0].length });
  }
  return out;
}
