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
import { t, tOr } from '../i18n/index.ts';

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
    throw new InvalidArgumentError(t('workMode.capacityInvalid', { max: CAPACITY_MAX }));
  }
  return Number(value);
}

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** `23:00-08:00` (or with an en dash) → {from, to}; the hours may be given as `9:00` too. */
export function parseQuiet(value: string): { from: string; to: string } {
  const parts = value.split(/\s*[-\u2013]\s*/);
  const pad = (t: string | undefined) => (t !== undefined && /^\d:\d\d$/.test(t) ? `0${t}` : t);
  const from = pad(parts[0]?.trim());
  const to = pad(parts[1]?.trim());
  if (parts.length !== 2 || !from || !to || !HHMM.test(from) || !HHMM.test(to)) {
    throw new UsageError(t('workMode.quietInvalid', { value }), t('workMode.quietExample'));
  }
  if (from === to) throw new UsageError(t('workMode.quietEmpty'));
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

export const register: Register = (noun, app) => {
  noun
    .command('show')
    .description(t('workMode.show'))
    .action(app.run(() => ({}), runWorkModeShow));
  noun
    .command('set')
    .description(t('workMode.set'))
    .option('--capacity <n>', t('workMode.options.capacity'), parseCapacity)
    .addOption(new Option('--dnd <onOff>', t('workMode.options.dnd')).choices(['on', 'off']))
    .option('--quiet <range>', t('workMode.options.quiet'))
    .option('--no-quiet', t('workMode.options.noQuiet'))
    .option('--tz <zone>', t('workMode.options.tz'))
    .addHelpText('after', t('workMode.setHelp'))
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
    [t('workMode.fields.capacity'), mode.capacity === null ? t('workMode.noLimit') : t('workMode.atATime', { count: mode.capacity })],
    [t('workMode.fields.dnd'), t(mode.doNotDisturb ? 'workMode.on' : 'workMode.off')],
    [t('workMode.fields.quiet'), mode.quietHours === null ? t('workMode.none') : t('workMode.quietRange', { ...mode.quietHours })],
    [t('workMode.fields.presence'), t('workMode.presence', { presence: tOr(`workMode.presences.${mode.presence}`, mode.presence) })],
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
    if (opts.tz !== undefined) throw new UsageError(t('workMode.tzWithNoQuiet'));
    body.quietHours = null;
  } else if (opts.quiet !== undefined) {
    const range = parseQuiet(opts.quiet);
    const tz = (await flagOrAsk(deps, opts.tz, '--tz', (p) => p.text(t('workMode.askTz')))).trim();
    if (!isTimeZone(tz)) throw new UsageError(t('workMode.tzInvalid', { tz }), t('workMode.tzHint'));
    body.quietHours = { ...range, tz };
  } else if (opts.tz !== undefined) {
    throw new UsageError(t('workMode.tzNeedsQuiet'));
  }
  if (Object.keys(body).length === 0) {
    throw new UsageError(t('workMode.nothing'), t('workMode.nothingHint'));
  }
  const mode = await deps.client().workMode.set(body);
  if (wantsJson(deps)) printJson(deps.io, mode);
  else printFields(deps.io, describeWorkMode(mode));
}
