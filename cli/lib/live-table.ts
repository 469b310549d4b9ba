/**
 * A block of lines redrawn in place on a terminal (a live table, as `seller orders watch` shows).
 *
 * Each frame moves the cursor up over the previous block (`CSI n F`: to the start of the line n
 * lines up), clears to the end of the screen (`CSI 0 J`) and writes the new lines, all in one write
 * so the terminal never shows half a frame. The cursor is hidden while the block is live and shown
 * again by `close()`. Lines are cut to the terminal's width (a wrapped line would make the next
 * move-up land in the wrong place) and the block to its height minus one line (the cursor cannot
 * move above the top of the screen).
 *
 * Nothing else may write to the terminal while a block is live: the renderer counts only its own
 * lines. Callers that cannot promise that (a child process sharing the terminal) use line output.
 */
import type { IO, Sink } from './io.ts';

/** A terminal stream: `process.stdout` has these; a test passes a fake. */
export interface TerminalSink extends Sink {
  columns?: number | undefined;
  rows?: number | undefined;
  on?: ((event: 'resize', listener: () => void) => unknown) | undefined;
  off?: ((event: 'resize', listener: () => void) => unknown) | undefined;
}

export const ESC = {
  hideCursor: '\u001b[?25l',
  showCursor: '\u001b[?25h',
  /** To the start of the line `n` lines up. */
  up: (n: number) => `\u001b[${n}F`,
  clearDown: '\u001b[0J',
  reset: '\u001b[0m',
} as const;

/**
 * Whether stdout can take a redrawn block: a terminal whose type is known and is not `dumb`. An
 * unset TERM says nothing about cursor control on Unix (curses refuses to start without it); the
 * Windows console has no TERM and understands these sequences.
 */
export function canRedraw(io: Pick<IO, 'stdoutIsTTY' | 'env'>, platform: NodeJS.Platform = process.platform): boolean {
  if (!io.stdoutIsTTY) return false;
  const term = io.env.TERM;
  if (term === 'dumb') return false;
  if (term === undefined || term === '') return platform === 'win32';
  return true;
}

// ---------------------------------------------------------------------------------------------
// Text that knows about escape sequences

const SGR = /\u001b\[[0-9;?]*[A-Za-z]/y;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** Control characters (a server's text could carry escape sequences) as spaces. */
export const plain = (text: string): string => text.replace(CONTROL, ' ');

/** The number of characters a line shows (escape sequences take no room). */
export function visibleLength(line: string): number {
  let length = 0;
  for (let i = 0; i < line.length; ) {
    SGR.lastIndex = i;
    if (SGR.test(line)) {
      i = SGR.lastIndex;
      continue;
    }
    const code = line.codePointAt(i)!;
    i += code > 0xffff ? 2 : 1;
    length++;
  }
  return length;
}

/**
 * `line` cut to `width` visible characters, ending in `…` when cut; escape sequences are kept and a
 * cut line that used any ends with a reset, so a colour never runs on.
 */
export function truncate(line: string, width: number): string {
  if (visibleLength(line) <= width) return line;
  if (width <= 0) return '';
  let out = '';
  let shown = 0;
  let styled = false;
  for (let i = 0; i < line.length; ) {
    SGR.lastIndex = i;
    if (SGR.test(line)) {
      out += line.slice(i, SGR.lastIndex);
      i = SGR.lastIndex;
      styled = true;
      continue;
    }
    if (shown === width - 1) break;
    const code = line.codePointAt(i)!;
    const size = code > 0xffff ? 2 : 1;
    out += line.slice(i, i + size);
    i += size;
    shown++;
  }
  return `${out}…${styled ? ESC.reset : ''}`;
}

export type Style = 'bold' | 'dim' | 'red' | 'yellow' | 'green' | 'cyan';

const STYLES: Record<Style, readonly [string, string]> = {
  bold: ['\u001b[1m', '\u001b[22m'],
  dim: ['\u001b[2m', '\u001b[22m'],
  red: ['\u001b[31m', '\u001b[39m'],
  yellow: ['\u001b[33m', '\u001b[39m'],
  green: ['\u001b[32m', '\u001b[39m'],
  cyan: ['\u001b[36m', '\u001b[39m'],
};

/** `text` in `style` when colour is on; as is otherwise (NO_COLOR, TERM=dumb). */
export function paint(color: boolean, style: Style | undefined, text: string): string {
  if (!color || style === undefined || text === '') return text;
  const [open, close] = STYLES[style];
  return `${open}${text}${close}`;
}

/** A table cell: its text and, optionally, a style. */
export interface Cell {
  text: string;
  style?: Style | undefined;
}

/**
 * Rows of cells as aligned lines (columns two spaces apart, the last one not padded). Widths are
 * measured on the plain text, then styles are applied, so colour never upsets the alignment.
 */
export function alignColumns(rows: ReadonlyArray<ReadonlyArray<Cell | string>>, color: boolean): string[] {
  const cells = rows.map((row) => row.map((c) => (typeof c === 'string' ? { text: plain(c) } : { ...c, text: plain(c.text) })));
  const widths: number[] = [];
  for (const row of cells) row.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, visibleLength(c.text))));
  return cells.map((row) =>
    row
      .map((c, i) => {
        const padded = i === row.length - 1 ? c.text : c.text + ' '.repeat(widths[i]! - visibleLength(c.text));
        return paint(color, c.style, padded.trimEnd()) + padded.slice(padded.trimEnd().length);
      })
      .join('  ')
      .trimEnd(),
  );
}

// ---------------------------------------------------------------------------------------------
// The block

export class LiveBlock {
  /** Lines of the block on screen now (what the next frame moves up over). */
  #drawn = 0;
  #last: string | undefined;
  #cursorHidden = false;
  #closed = false;

  constructor(private readonly out: TerminalSink) {}

  /** Columns of the terminal (80 when it does not say). */
  get width(): number {
    const columns = this.out.columns;
    return columns !== undefined && columns > 0 ? columns : 80;
  }

  /** Rows of the terminal (24 when it does not say). */
  get height(): number {
    const rows = this.out.rows;
    return rows !== undefined && rows > 0 ? rows : 24;
  }

  /** The most lines a frame may have: one row stays for the cursor below the block. */
  get maxLines(): number {
    return Math.max(1, this.height - 1);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Replaces the block on screen with `lines` (cut to the width, and to `maxLines` keeping the
   * first ones). A frame equal to the one on screen is not written again unless `force` (after a
   * resize). Answers whether anything was written.
   */
  render(lines: readonly string[], force = false): boolean {
    if (this.#closed) return false;
    const width = this.width;
    const shown = lines.slice(0, this.maxLines).map((line) => truncate(line, width));
    const frame = shown.join('\n');
    if (!force && frame === this.#last) return false;
    let text = this.#cursorHidden ? '' : ESC.hideCursor;
    this.#cursorHidden = true;
    if (this.#drawn > 0) text += ESC.up(this.#drawn);
    text += ESC.clearDown;
    for (const line of shown) text += `${line}\n`;
    this.out.write(text);
    this.#drawn = shown.length;
    this.#last = frame;
    return true;
  }

  /**
   * Ends the block: draws `last` when given (it stays on screen, like the final state of a
   * progress display), then shows the cursor again. Later renders do nothing. Safe to call twice.
   */
  close(last?: readonly string[]): void {
    if (this.#closed) return;
    if (last !== undefined) this.render(last, true);
    this.#closed = true;
    if (this.#cursorHidden) this.out.write(ESC.showCursor);
    this.#cursorHidden = false;
  }

  /** Calls `listener` when the terminal is resized (when the stream can tell); answers the undo. */
  onResize(listener: () => void): () => void {
    const { on, off } = this.out;
    if (typeof on !== 'function' || typeof off !== 'function') return () => {};
    on.call(this.out, 'resize', listener);
    return () => void off.call(this.out, 'resize', listener);
  }
}
