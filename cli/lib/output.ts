/**
 * Output for people (aligned tables, key/value blocks) and for scripts (`--json`: one JSON
 * document on stdout and nothing else there). Notes and warnings go to stderr.
 */
import { t } from '../i18n/index.ts';
import { type IO, useColor } from './io.ts';

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
}

// i18next-instrument-ignore-next-line: terminal escape codes
const bold = (on: boolean, s: string) => (on ? `\u001b[1m${s}\u001b[22m` : s);
// i18next-instrument-ignore-next-line: terminal escape codes
const dim = (on: boolean, s: string) => (on ? `\u001b[2m${s}\u001b[22m` : s);

/** Renders a cell: null/undefined as `-`, arrays joined with commas. */
export function cell(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  if (Array.isArray(value)) return value.length ? value.map(cell).join(', ') : '-';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value).replace(/[\r\n\t]+/g, ' ');
}

/** The script face: pretty JSON on stdout. */
export function printJson(io: IO, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * An aligned table on stdout. On a terminal it has a bold header; piped, it is tab-separated with
 * the header as its first line (a file or a pager names its columns; `tail -n +2 | cut -f1` skips it,
 * and `--json` is the form for programs). No rows prints `empty` on stderr: no results is not an error.
 */
export function printTable<T>(io: IO, rows: readonly T[], columns: readonly Column<T>[], empty = t('words.noResults')): void {
  if (rows.length === 0) {
    note(io, empty);
    return;
  }
  const cells = rows.map((row) => columns.map((c) => cell(c.value(row))));
  if (!io.stdoutIsTTY) {
    io.stdout.write(`${columns.map((c) => c.header).join('\t')}\n`);
    for (const line of cells) io.stdout.write(`${line.join('\t')}\n`);
    return;
  }
  const color = useColor(io);
  const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((line) => line[i]!.length)));
  const pad = (s: string, i: number) => (i === columns.length - 1 ? s : s.padEnd(widths[i]!));
  io.stdout.write(`${bold(color, columns.map((c, i) => pad(c.header, i)).join('  ').trimEnd())}\n`);
  for (const line of cells) io.stdout.write(`${line.map(pad).join('  ').trimEnd()}\n`);
}

/** A `Label: value` block on stdout, labels aligned. */
export function printFields(io: IO, fields: ReadonlyArray<readonly [string, unknown]>): void {
  const width = Math.max(...fields.map(([label]) => label.length)) + 1;
  const color = useColor(io);
  for (const [label, value] of fields) {
    io.stdout.write(`${dim(color, `${label}:`.padEnd(width))} ${cell(value)}\n`);
  }
}

/** A line for people: stdout. */
export function say(io: IO, text: string): void {
  io.stdout.write(`${text}\n`);
}

/** A side note (progress, hints, "no results"): stderr, so stdout stays clean. */
export function note(io: IO, text: string): void {
  io.stderr.write(`${text}\n`);
}

export function warn(io: IO, text: string): void {
  io.stderr.write(`${t('words.warning', { text })}\n`);
}

/** Shows the first characters of a secret for recognition, never the rest. */
export function keyPrefix(key: string, length = 18): string {
  return `${key.slice(0, length)}…`;
}
