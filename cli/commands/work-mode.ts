/**
 * `seller work-mode show|set`: how many orders you take at a time, do-not-disturb, and quiet hours
 * (scope `orders`). Presence (online, away, offline) is shown but cannot be set: the marketplace
 * decides it from your activity, and the API refuses it as input.
 */
import { InvalidArgumentError, Option } from 'commander';
import type { z } from 'zod';
import type { WorkMode, WorkModeSet } from '../lib/records.ts';
import type { Register } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { UsageError } from '../lib/errors.ts';
import { printFields, printJson } from '../lib/output.ts';
import { flagOrAsk } from '../lib/prompts.ts';

type WorkModeView = WorkMode;
type WorkModeBody = WorkModeSet;

export interface WorkModeSetOptions {
  /** A number, or null for no limit. */
  capacity?: number | null | undefined;
  dnd?: boolean | undefined;
  /** `HH:MM-HH:MM`, or false for `--no-quiet`. */
  quiet?: string | false | undefined;
  tz?: string | undefined;
}

const CAPACITY_MAX = 10_000;

/**
 * commander argParser of `--capacity`: a number 1..10000, or `none` for no limit (kept as the word:
 * commander does not keep a parsed `null`).
 */
export function parseCapacity(value: string): number | 'none' {
  if (value === 'none' || value === 'unlimited') return 'none';
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > CAPACITY_MAX) {
    throw new InvalidArgumentError(`Must be a number from 1 to ${CAPACITY_MAX}, or "none".`);
  }
  return Number(value);
}

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** `23:00-08:00` → {from, to}; the hours may be given as `9:00` too. */
export function parseQuiet(value: string): { from: string; to: string } {
  const parts = value.split(/\s*[-–]\s*/);
  const pad = (t: string | undefined) => (t !== undefined && /^\d:\d\d$/.test(t) ? `0${t}` : t);
  const from = pad(parts[0]?.trim());
  const to = pad(parts[1]?.trim());
  if (parts.length !== 2 || !from || !to || !HHMM.test(from) || !HHMM.test(to)) {
    throw new UsageError(`--quiet: "${value}" is not a range HH:MM-HH:MM`, 'example: --quiet 23:00-08:00 --tz Europe/Moscow');
  }
  if (from === to) throw new UsageError('--quiet: the range is empty (start equals end)');
  return { from, to };
}

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const PRESENCE_NOTE = `
Presence (online, away, offline) is not a setting: the marketplace decides it from your activity,
so there is no flag for it; \`seller work-mode show\` shows what it is now.

Examples:
  $ seller work-mode set --capacity 5
  $ seller work-mode set --dnd on
  $ seller work-mode set --quiet 23:00-08:00 --tz Europe/Moscow
  $ seller work-mode set --capacity none --no-quiet`;

export const register: Register = (noun, app) => {
  noun
    .command('show')
    .description('Show capacity, do-not-disturb, quiet hours and your presence')
    .action(app.run(() => ({}), runWorkModeShow));
  noun
    .command('set')
    .description('Change capacity, do-not-disturb or quiet hours (presence cannot be set)')
    .option('--capacity <n>', 'orders you take at a time, or "none" for no limit', parseCapacity)
    .addOption(new Option('--dnd <onOff>', 'do not disturb').choices(['on', 'off']))
    .option('--quiet <range>', 'quiet hours HH:MM-HH:MM (with --tz)')
    .option('--no-quiet', 'remove the quiet hours')
    .option('--tz <zone>', 'time zone of --quiet, e.g. Europe/Moscow')
    .addHelpText('after', PRESENCE_NOTE)
    .action(
      app.run(
        (o: { capacity?: number | 'none'; dnd?: 'on' | 'off'; quiet?: string | boolean; tz?: string }): WorkModeSetOptions => ({
          capacity: o.capacity === 'none' ? null : o.capacity,
          dnd: o.dnd === undefined ? undefined : o.dnd === 'on',
          // commander gives `true` for neither flag when --no-quiet exists; only a string or false count.
          quiet: typeof o.quiet === 'string' || o.quiet === false ? o.quiet : undefined,
          tz: o.tz,
        }),
        runWorkModeSet,
      ),
    );
};

export function describeWorkMode(mode: WorkModeView): ReadonlyArray<readonly [string, string]> {
  return [
    ['Capacity', mode.capacity === null ? 'no limit' : `${mode.capacity} order${mode.capacity === 1 ? '' : 's'} at a time`],
    ['Do not disturb', mode.doNotDisturb ? 'on' : 'off'],
    ['Quiet hours', mode.quietHours === null ? 'none' : `${mode.quietHours.from}-${mode.quietHours.to} (${mode.quietHours.tz})`],
    ['Presence', `${mode.presence} (decided by the marketplace)`],
  ];
}

export async function runWorkModeShow(_opts: object, deps: Deps): Promise<void> {
  const mode = await deps.client().workMode.get();
  if (wantsJson(deps)) printJson(deps.io, mode);
  else printFields(deps.io, describeWorkMode(mode));
}

export async function runWorkModeSet(opts: WorkModeSetOptions, deps: Deps): Promise<void> {
  const body: WorkModeBody = {};
  if (opts.capacity !== undefined) body.capacity = opts.capacity;
  if (opts.dnd !== undefined) body.doNotDisturb = opts.dnd;
  if (opts.quiet === false) {
    if (opts.tz !== undefined) throw new UsageError('--tz goes with --quiet, not with --no-quiet');
    body.quietHours = null;
  } else if (opts.quiet !== undefined) {
    const range = parseQuiet(opts.quiet);
    const tz = (await flagOrAsk(deps, opts.tz, '--tz', (p) => p.text('Time zone of the quiet hours (e.g. Europe/Moscow)'))).trim();
    if (!isTimeZone(tz)) throw new UsageError(`--tz: "${tz}" is not a time zone`, 'use an IANA name such as Europe/Moscow or Asia/Yekaterinburg');
    body.quietHours = { ...range, tz };
  } else if (opts.tz !== undefined) {
    throw new UsageError('--tz needs --quiet HH:MM-HH:MM');
  }
  if (Object.keys(body).length === 0) {
    throw new UsageError('nothing to change', 'give --capacity, --dnd, --quiet with --tz, or --no-quiet; see `seller work-mode set --help`');
  }
  const mode = await deps.client().workMode.set(body);
  if (wantsJson(deps)) printJson(deps.io, mode);
  else printFields(deps.io, describeWorkMode(mode));
}
