/**
 * `seller autopilot --config FILE`: the seller's bot (sdk/autopilot), configured in a JSON or YAML
 * file and left running: delivers orders by rules, guards deadlines, sets the work mode while a
 * backlog lasts, cares for stock, reprices within a floor and a ceiling, answers buyers by
 * templates.
 *
 * - Output: one line per event (time, rule, what happened); on a terminal that can redraw, a live
 *   panel of counts and the latest events, redrawn in place; with `--json`, one JSON object per
 *   event (NDJSON) and nothing else on stdout.
 * - `--state PATH` (default `.<config name>.state.json` beside the config): the watermark and the
 *   delivery journal; a restart after a crash resumes from it and handles each order once.
 * - `--dry-run`: changes nothing, runs no action, writes neither the state nor the audit log; prints
 *   what it would do (a reprice as its before → after).
 * - SIGINT / SIGTERM: stops taking work, finishes what is in progress, saves the state, exit 0.
 *   A second signal exits at once (130); the state file is still whole, the journal resumes it.
 */
import { configErrorWords } from './autopilot-config-words.ts';
import { basename, dirname, join } from 'node:path';
import type { Register } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { UsageError } from '../lib/errors.ts';
import { useColor } from '../lib/io.ts';
import { canRedraw, LiveBlock, paint, type TerminalSink } from '../lib/live-table.ts';
import { note } from '../lib/output.ts';
import { language, t } from '../i18n/index.ts';
import { clockTime } from '../i18n/format.ts';
import type { AutopilotEvent } from '../../sdk/autopilot/events.ts';
import { eventMessage, eventType, repeatsColumns } from './autopilot-lines.ts';

export interface AutopilotCliOptions {
  config: string;
  state?: string | undefined;
  dryRun: boolean;
}

export const register: Register = (command, app) => {
  command
    // i18next-instrument-ignore-next-line: the option's flags, typed as they are
    .requiredOption('-c, --config <file>', t('autopilot.options.config'))
    .option('--state <path>', t('autopilot.options.state'))
    .option('--dry-run', t('autopilot.options.dryRun'))
    .addHelpText('after', t('autopilot.help'))
    .action(app.run((o: { config: string; state?: string; dryRun?: boolean }): AutopilotCliOptions => ({ config: o.config, state: o.state, dryRun: o.dryRun === true }), runAutopilotCommand));
};

/** `.autopilot.state.json` beside `autopilot.yaml`. */
export const defaultStatePath = (config: string): string => join(dirname(config), `.${basename(config).replace(/\.(json|ya?ml)$/i, '')}.state.json`);

export async function runAutopilotCommand(opts: AutopilotCliOptions, deps: Deps): Promise<void> {
  const { loadAutopilotConfig, AutopilotConfigError, Autopilot } = await import('../../sdk/autopilot/index.ts');
  let config;
  try {
    config = await loadAutopilotConfig(opts.config);
  } catch (error) {
    if (error instanceof AutopilotConfigError) throw new UsageError(await configErrorWords(error), t('autopilot.fixConfig'));
    throw error;
  }
  const { io } = deps;
  const client = deps.client();
  // grammY is loaded only for a config with notify.telegram (autopilot-telegram.ts).
  const telegram = config.notify?.telegram;
  const phone = telegram && !opts.dryRun ? await (await import('./autopilot-telegram.ts')).openPhone(telegram, opts.config, deps) : undefined;
  const json = wantsJson(deps);
  const statePath = opts.state ?? defaultStatePath(opts.config);
  const controller = new AbortController();
  let stops = 0;
  const stop = () => {
    stops++;
    if (stops > 1) process.exit(130);
    note(io, t('autopilot.stopping'));
    controller.abort();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const panel = !json && canRedraw(io) ? new Panel(deps) : undefined;
  const onEvent = (event: AutopilotEvent) => {
    // Commands are taken once the autopilot runs (its state read: a pause is known).
    if (phone && event.rule === 'autopilot' && event.type === 'started') phone.listen(autopilot, client);
    if (json) io.stdout.write(`${JSON.stringify(event)}\n`);
    else if (panel) panel.add(event);
    else io.stdout.write(`${eventLine(event)}\n`);
  };
  if (!json) note(io, t(opts.dryRun ? 'autopilot.startingDry' : 'autopilot.starting', { config: opts.config, statePath }));
  const autopilot = new Autopilot(client, config, { statePath, dryRun: opts.dryRun, signal: controller.signal, onEvent, channels: phone ? [phone.channel] : [] });
  try {
    await autopilot.run();
  } finally {
    await phone?.close();
    panel?.close();
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

/** `12:03:04  deliver   delivered  ord_… delivered by subs` (a message that repeats rule and type drops them). */
export function eventLine(event: AutopilotEvent): string {
  // English keeps the line it always printed; other languages show the time by the locale and --utc.
  const time = language() === 'en' ? new Date(event.at).toTimeString().slice(0, 8) : clockTime(Date.parse(event.at));
  // i18next-instrument-ignore-next-line: the columns of the line; each is translated
  return `${time}  ${event.rule.padEnd(9)} ${eventType(event.type).padEnd(14)} ${eventMessage(event, repeatsColumns(event))}`;
}

/** Event types counted in the panel's header. */
const COUNTED: Record<string, string> = {
  'deliver.delivered': 'delivered',
  'deliver.failed': 'failed',
  'deliver.refused': 'refused',
  'deliver.skipped': 'skipped',
  'deadline.warned': 'warnings',
  'deadline.missed': 'missed',
  'orders.refunded': 'refunded',
  'orders.cancelled': 'cancelled',
  'orders.disputed': 'disputes',
  'reprice.repriced': 'repriced',
  'replies.replied': 'replies',
  'stock.reenabled': 'restocked',
};

/** The panel's counts, by `rule.type`, as words (`1 reply, 2 warnings`; `autopilot.panel.counted.*`). */
export function countsLine(counts: ReadonlyMap<string, number>): string {
  const said = [...counts].filter(([key]) => COUNTED[key]).map(([key, n]) => t(`autopilot.panel.counted.${COUNTED[key]}`, { count: n }));
  return said.join(', ') || t('autopilot.panel.nothingYet');
}

/** The live panel: counts, then the latest events that fit, redrawn on each event and every second. */
class Panel {
  readonly #block: LiveBlock;
  readonly #color: boolean;
  readonly #events: AutopilotEvent[] = [];
  readonly #counts = new Map<string, number>();
  readonly #timer: ReturnType<typeof setInterval>;
  #stopped = false;

  constructor(deps: Deps) {
    this.#block = new LiveBlock(deps.io.stdout as TerminalSink);
    this.#color = useColor(deps.io);
    this.#timer = setInterval(() => this.#draw(), 1000);
    this.#timer.unref?.();
  }

  add(event: AutopilotEvent): void {
    const key = `${event.rule}.${event.type}`;
    if (COUNTED[key]) this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
    if (event.type === 'stopped') this.#stopped = true;
    this.#events.push(event);
    if (this.#events.length > 200) this.#events.shift();
    this.#draw();
  }

  close(): void {
    clearInterval(this.#timer);
    this.#block.close(this.#frame());
  }

  #frame(): string[] {
    const counts = countsLine(this.#counts);
    // i18next-instrument-ignore-next-line: the panel's layout; its parts are translated
    const header = `${paint(this.#color, 'bold', t('autopilot.panel.title'))}  ·  ${counts}`;
    const room = Math.max(1, this.#block.maxLines - 2);
    const lines = this.#events.slice(-room).map((e) => {
      const style = e.type === 'failed' || e.type === 'error' || e.type === 'refused' ? 'red' : e.type === 'warned' || e.type === 'dispute' ? 'yellow' : undefined;
      return paint(this.#color, style, eventLine(e));
    });
    return [header, ...lines, paint(this.#color, 'dim', t(this.#stopped ? 'autopilot.panel.stopped' : 'autopilot.panel.ctrlC'))];
  }

  #draw(): void {
    this.#block.render(this.#frame());
  }
}
