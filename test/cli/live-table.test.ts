import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { useColor } from '../../cli/lib/io.ts';
import { alignColumns, canRedraw, ESC, LiveBlock, paint, plain, truncate, visibleLength } from '../../cli/lib/live-table.ts';
import { bufferIO } from './helpers.ts';

/** A fake terminal stream: records writes, has a size, and emits `resize`. */
function fakeTerminal(columns = 40, rows = 10) {
  const emitter = new EventEmitter();
  const writes: string[] = [];
  return {
    writes,
    columns,
    rows,
    write: (text: string) => writes.push(text),
    on: (event: 'resize', listener: () => void) => emitter.on(event, listener),
    off: (event: 'resize', listener: () => void) => emitter.off(event, listener),
    emit: () => emitter.emit('resize'),
    listeners: () => emitter.listenerCount('resize'),
  };
}

/**
 * What a terminal shows after `text`: just enough of one to check a redraw (line feeds, `CSI n F`,
 * `CSI 0 J`; cursor visibility and colours are dropped). The cursor starts on a fresh line below `before`.
 */
function screen(text: string, before: string[] = []): { lines: string[]; cursorHidden: boolean } {
  const lines = [...before, ''];
  let row = before.length;
  let cursorHidden = false;
  const pattern = /\u001b\[(\??)(\d*)([A-Za-z])|\n|[^\u001b\n]+/g;
  for (const match of text.matchAll(pattern)) {
    const [token, private_, n, command] = match;
    if (token === '\n') {
      row++;
      if (lines.length <= row) lines.push('');
    } else if (command === undefined) {
      lines[row] += token;
    } else if (command === 'F') {
      row = Math.max(0, row - Number(n || 1));
      lines[row] = '';
    } else if (command === 'J') {
      lines.splice(row + 1);
      lines[row] = '';
    } else if (private_ === '?' && n === '25') {
      cursorHidden = command === 'l';
    }
  }
  if (lines.at(-1) === '') lines.pop();
  return { lines, cursorHidden };
}

describe('LiveBlock', () => {
  it('draws a block, then replaces it in place: up over the previous lines, clear to the end', () => {
    const term = fakeTerminal();
    const block = new LiveBlock(term);
    expect(block.render(['one', 'two', 'three'])).toBe(true);
    expect(term.writes[0]).toBe(`${ESC.hideCursor}${ESC.clearDown}one\ntwo\nthree\n`);
    block.render(['uno', 'dos']);
    expect(term.writes[1]).toBe(`\u001b[3F\u001b[0Juno\ndos\n`);
    block.render(['a', 'b', 'c', 'd']);
    expect(term.writes[2]).toBe(`\u001b[2F\u001b[0Ja\nb\nc\nd\n`);
    // Lines written before the block stay; only the block changes.
    expect(screen(term.writes.join(''), ['Watching orders…'])).toEqual({ lines: ['Watching orders…', 'a', 'b', 'c', 'd'], cursorHidden: true });
  });

  it('does not write a frame equal to the one on screen, unless forced', () => {
    const term = fakeTerminal();
    const block = new LiveBlock(term);
    block.render(['same']);
    expect(block.render(['same'])).toBe(false);
    expect(term.writes).toHaveLength(1);
    expect(block.render(['same'], true)).toBe(true);
    expect(term.writes[1]).toBe(`\u001b[1F\u001b[0Jsame\n`);
  });

  it('cuts lines to the terminal width and the block to its height minus the cursor line', () => {
    const term = fakeTerminal(10, 4);
    const block = new LiveBlock(term);
    block.render(['0123456789abc', 'short', 'third', 'fourth', 'fifth']);
    expect(screen(term.writes.join('')).lines).toEqual(['012345678…', 'short', 'third']);
    expect(block.maxLines).toBe(3);
    term.columns = 6;
    block.render(['0123456789abc']);
    expect(term.writes[1]).toBe(`\u001b[3F\u001b[0J01234…\n`);
  });

  it('falls back to 80×24 when the stream does not tell its size', () => {
    const block = new LiveBlock({ write: () => {} });
    expect([block.width, block.height, block.maxLines]).toEqual([80, 24, 23]);
  });

  it('close draws the last frame, shows the cursor once and ends the block', () => {
    const term = fakeTerminal();
    const block = new LiveBlock(term);
    block.render(['live']);
    block.close(['final']);
    expect(term.writes.slice(1)).toEqual([`\u001b[1F\u001b[0Jfinal\n`, ESC.showCursor]);
    expect(block.render(['later'])).toBe(false);
    block.close(['again']);
    expect(term.writes).toHaveLength(3);
    expect(screen(term.writes.join(''))).toEqual({ lines: ['final'], cursorHidden: false });
    // A block that never drew leaves the terminal alone.
    const idle = fakeTerminal();
    new LiveBlock(idle).close();
    expect(idle.writes).toEqual([]);
  });

  it('tells about resizes while wanted', () => {
    const term = fakeTerminal();
    const block = new LiveBlock(term);
    let resized = 0;
    const undo = block.onResize(() => resized++);
    term.emit();
    undo();
    term.emit();
    expect(resized).toBe(1);
    expect(term.listeners()).toBe(0);
    expect(new LiveBlock({ write: () => {} }).onResize(() => {})).toBeTypeOf('function');
  });
});

describe('text with escape sequences', () => {
  it('measures and cuts by visible characters, keeping colours and resetting a cut line', () => {
    const red = paint(true, 'red', 'overdue 3 min');
    expect(visibleLength(red)).toBe(13);
    expect(visibleLength('a → b…')).toBe(6);
    expect(truncate(red, 20)).toBe(red);
    expect(truncate(red, 8)).toBe(`\u001b[31moverdue…${ESC.reset}`);
    expect(truncate('plain text', 5)).toBe('plai…');
    expect(truncate('anything', 0)).toBe('');
  });

  it('turns control characters from the server into spaces', () => {
    expect(plain('ord\u001b[2Jx\ny')).toBe('ord [2Jx y');
  });

  it('aligns columns on the visible text; colours do not move them', () => {
    const rows = [
      ['ID', 'STATUS', 'PRICE'],
      [{ text: 'ord_a', style: 'dim' as const }, { text: 'delivered', style: 'red' as const }, '390 RUB'],
      ['ord_long_id', 'paid', '5 RUB'],
    ];
    const coloured = alignColumns(rows, true);
    const bare = alignColumns(rows, false);
    expect(bare).toEqual(['ID           STATUS     PRICE', 'ord_a        delivered  390 RUB', 'ord_long_id  paid       5 RUB']);
    expect(coloured.map((line) => line.replace(/\u001b\[\d+m/g, ''))).toEqual(bare);
    expect(coloured[1]).toContain('\u001b[2mord_a\u001b[22m');
  });
});

describe('terminal capabilities', () => {
  it('redraws only on a terminal with a known TERM that is not dumb', () => {
    const tty = (env: Record<string, string | undefined>, stdoutIsTTY = true) => ({ stdoutIsTTY, env });
    expect(canRedraw(tty({ TERM: 'xterm-256color' }), 'linux')).toBe(true);
    expect(canRedraw(tty({ TERM: 'xterm-256color' }, false), 'linux')).toBe(false);
    expect(canRedraw(tty({ TERM: 'dumb' }), 'linux')).toBe(false);
    expect(canRedraw(tty({ TERM: 'dumb' }), 'win32')).toBe(false);
    expect(canRedraw(tty({}), 'linux')).toBe(false);
    expect(canRedraw(tty({}), 'win32')).toBe(true);
  });

  it('NO_COLOR drops the colours but not the redraw', () => {
    const io = bufferIO({ tty: true, env: { TERM: 'xterm-256color', NO_COLOR: '1' } });
    expect(canRedraw(io)).toBe(true);
    const color = useColor(io);
    expect(color).toBe(false);
    const term = fakeTerminal();
    const block = new LiveBlock(term);
    block.render(alignColumns([[{ text: 'ID', style: 'bold' }], [{ text: 'ord_a', style: 'yellow' }]], color));
    block.render(alignColumns([[{ text: 'ID', style: 'bold' }], [{ text: 'ord_b', style: 'yellow' }]], color));
    expect(term.writes.join('')).not.toMatch(/\u001b\[\d*m/);
    expect(term.writes[1]).toBe('\u001b[2F\u001b[0JID\nord_b\n');
    expect(useColor(bufferIO({ tty: true, env: { TERM: 'xterm-256color' } }))).toBe(true);
  });

  it('TERM=dumb means no redraw (the caller prints lines) and no colour', () => {
    const io = bufferIO({ tty: true, env: { TERM: 'dumb' } });
    expect(canRedraw(io)).toBe(false);
    expect(useColor(io)).toBe(false);
  });
});
