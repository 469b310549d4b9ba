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
import { basename, dirname, join } from 'node:path';
import type { Register } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { UsageError } from '../lib/errors.ts';
import { useColor } from '../lib/io.ts';
import { canRedraw, LiveBlock, paint, type TerminalSink } from '../lib/live-table.ts';
import { note } from '../lib/output.ts';
import type { AutopilotEvent } from '../../sdk/autopilot/events.ts';

export interface AutopilotCliOptions {
  config: string;
  state?: string | undefined;
  dryRun: boolean;
}

export const register: Register = (command, app) => {
  command
    .requiredOption('-c, --config <file>', 'the autopilot configuration (.json, .yaml or .yml)')
    .option('--state <path>', 'where the watermark and delivery journal are kept (default: .<config name>.state.json beside the config)')
    .option('--dry-run', 'change nothing and run no action: print what would be done')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ seller autopilot --config autopilot.yaml --dry-run',
        '  $ seller autopilot --config autopilot.yaml',
        '  $ seller autopilot --config autopilot.json --json >> autopilot.log',
        '',
        'Rules (each optional): deliver, deadline, backlog, stock, reprice, replies; see the README, section Autopilot.',
        'Ctrl-C stops it after the work in progress (exit 0); it resumes from its state file.',
      ].join('\n'),
    )
    .action(app.run((o: { config: string; state?: string; dryRun?: boolean }): AutopilotCliOptions => ({ config: o.config, state: o.state, dryRun: o.dryRun === true }), runAutopilotCommand));
};

/** `.autopilot.state.json` beside `autopilot.yaml`. */
export const defaultStatePath = (config: string): string => join(dirname(config), `.${basename(config).replace(/\.(json|ya?ml)$/i, '')}.state.json`);

export async function runAutopilotCommand(opts: AutopilotCliOptions, deps: Deps): Promise<void> {
  const { loadAutopilotConfig, AutopilotConfigError, runAutopilot } = await import('../../sdk/autopilot/index.ts');
  let config;
  try {
    config = await loadAutopilotConfig(opts.config);
  } catch (error) {
    if (error instanceof AutopilotConfigError) throw new UsageError(error.message, 'fix the file and start again; see the README, section Autopilot');
    throw error;
  }
  const { io } = deps;
  const client = deps.client();
  const json = wantsJson(deps);
  const statePath = opts.state ?? defaultStatePath(opts.config);
  const controller = new AbortController();
  let stops = 0;
  const stop = () => {
    stops++;
    if (stops > 1) process.exit(130);
    note(io, 'stopping: finishing the work in progress (Ctrl-C again to quit at once)');
    controller.abort();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const panel = !json && canRedraw(io) ? new Panel(deps) : undefined;
  const onEvent = (event: AutopilotEvent) => {
    if (json) io.stdout.write(`${JSON.stringify(event)}\n`);
    else if (panel) panel.add(event);
    else io.stdout.write(`${eventLine(event)}\n`);
  };
  if (!json) note(io, `autopilot: ${opts.config}, state in ${statePath}${opts.dryRun ? ' (dry run)' : ''}; Ctrl-C to stop`);
  try {
    await runAutopilot(client, config, { statePath, dryRun: opts.dryRun, signal: controller.signal, onEvent });
  } finally {
    panel?.close();
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

/** `12:03:04  deliver   delivered  ord_… delivered by subs` (a message that repeats rule and type drops them). */
export function eventLine(event: AutopilotEvent): string {
  const time = new Date(event.at).toTimeString().slice(0, 8);
  const said = `${event.rule} ${event.type}`;
  const message = event.message.startsWith(said) ? event.message.slice(said.length).replace(/^[:;,]?\s*/, '') : event.message;
  return `${time}  ${event.rule.padEnd(9)} ${event.type.padEnd(14)} ${message}`;
}

/** Event types counted in the panel's header: the label for one and for several. */
const COUNTED: Record<string, { one: string; other: string }> = {
  'deliver.delivered': { one: 'delivered', other: 'delivered' },
  'deliver.failed': { one: 'failed', other: 'failed' },
  'deliver.refused': { one: 'refused', other: 'refused' },
  'deliver.skipped': { one: 'skipped', other: 'skipped' },
  'deadline.warned': { one: 'warning', other: 'warnings' },
  'deadline.missed': { one: 'missed deadline', other: 'missed deadlines' },
  'orders.refunded': { one: 'refunded', other: 'refunded' },
  'orders.cancelled': { one: 'cancelled', other: 'cancelled' },
  'orders.disputed': { one: 'dispute', other: 'disputes' },
  'reprice.repriced': { one: 'repriced', other: 'repriced' },
  'replies.replied': { one: 'reply', other: 'replies' },
  'stock.reenabled': { one: 'restocked', other: 'restocked' },
};

const PLURAL = new Intl.PluralRules('en');

/** `1 reply`, `2 replies`: the panel's counts. */
export function countsLine(counts: ReadonlyMap<string, number>): string {
  return [...counts].map(([key, n]) => `${n} ${COUNTED[key]![PLURAL.select(n) === 'one' ? 'one' : 'other']}`).join(', ') || 'nothing done yet';
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
    const header = `${paint(this.#color, 'bold', 'Autopilot')}  ·  ${counts}`;
    const room = Math.max(1, this.#block.maxLines - 2);
    const lines = this.#events.slice(-room).map((e) => {
      const style = e.type === 'failed' || e.type === 'error' || e.type === 'refused' ? 'red' : e.type === 'warned' || e.type === 'dispute' ? 'yellow' : undefined;
      return paint(this.#color, style, eventLine(e));
    });
    return [header, ...lines, paint(this.#color, 'dim', this.#stopped ? 'stopped' : 'Ctrl-C to stop')];
  }

  #draw(): void {
    this.#block.render(this.#frame());
  }
}
