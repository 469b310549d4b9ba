/**
 * `seller sandbox fault add|list|clear`: faults on demand and webhook chaos on a local seller-server
 * (issue #27). The flags become the sandbox's body through the SDK's `faultBody` (the scenario
 * runner's `fault:` step uses it too); what it refuses is worded here, flag by flag.
 *
 *   seller sandbox fault add --op orders.deliver --status 503 --times 2
 *   seller sandbox fault add --op '*' --status 429 --retry-after 5s
 *   seller sandbox fault add --seller sel_… --hooks delay:5s
 *   seller sandbox fault add --op telegram.sendMessage --bot 7000000001 --status 429 --times 2
 *   seller sandbox fault list
 *   seller sandbox fault clear [ID]
 */
import { Option, type Command } from 'commander';
import { t } from '../i18n/index.ts';
import { dateTime } from '../i18n/format.ts';
import { faultProblemKey, nearestOp } from './fault-words.ts';
import { faultBody, FaultFlagsError, type AddFaultBody, type FaultFlags } from '../../sdk/sandbox-faults.ts';
import type { App } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { UsageError } from '../lib/errors.ts';
import { note, printJson, printTable, say } from '../lib/output.ts';
import type { SandboxClient } from '../../sdk/sandbox.ts';

type Fault = Awaited<ReturnType<SandboxClient['addFault']>>;
/** The sandbox client of the invoked command (cli/commands/sandbox.ts `sandboxClient`). */
export type SandboxOf = (deps: Deps) => SandboxClient;

/** `seller sandbox fault …`; `sandboxClient` is passed in by sandbox.ts (no import back: no cycle). */
export function registerFaults(noun: Command, app: App, sandboxClient: SandboxOf): void {
  const fault = noun.command('fault').description(t('sandboxFault.description')).addHelpText('after', t('sandboxFault.examples'));
  fault
    .command('add')
    .description(t('sandboxFault.addDescription'))
    .option('--seller <id>', t('sandboxFault.seller'))
    .option('--bot <id>', t('sandboxFault.bot'))
    .option('--op <id>', t('sandboxFault.op'))
    .option('--status <n>', t('sandboxFault.status'))
    .option('--retry-after <duration>', t('sandboxFault.retryAfter'))
    .option('--latency <duration>', t('sandboxFault.latency'))
    .option('--drop', t('sandboxFault.drop'))
    .option('--drop-after', t('sandboxFault.dropAfter'))
    .addOption(new Option('--hooks <kind>', t('sandboxFault.hooks')))
    .option('--times <n>', t('sandboxFault.times'))
    .option('--for <duration>', t('sandboxFault.for'))
    .option('--every <n>', t('sandboxFault.every'))
    .action(app.run((o: FaultFlags) => parseFault(o), (body: AddFaultBody, deps: Deps) => runAddFault(body, deps, sandboxClient)));
  fault
    .command('list')
    .description(t('sandboxFault.listDescription'))
    .action(app.run(() => ({}), (_o: object, deps: Deps) => runListFaults(deps, sandboxClient)));
  fault
    .command('clear')
    .description(t('sandboxFault.clearDescription'))
    .argument('[id]', t('sandboxFault.clearId'))
    .action(app.run((id: string | undefined) => ({ id }), (o: { id?: string | undefined }, deps: Deps) => runClearFaults(o, deps, sandboxClient)));
}

/** The flags as the sandbox's body; a usage error (exit 2) naming the flag otherwise. */
export function parseFault(flags: FaultFlags): AddFaultBody {
  try {
    return faultBody(flags);
  } catch (err) {
    if (err instanceof FaultFlagsError) throw usageOf(err, flags);
    throw err;
  }
}

const FLAG: Record<string, string> = { dropAfter: '--drop-after', retryAfter: '--retry-after' };
const flagName = (field: string) => FLAG[field] ?? `--${field}`;

function usageOf(err: FaultFlagsError, flags: FaultFlags): UsageError {
  const key = faultProblemKey(err.field, err.code);
  if (key === 'unknownOp') {
    const op = String(flags.op).trim();
    const near = nearestOp(op);
    return new UsageError(t('sandboxFault.unknownOp', { op }), near ? t('sandboxFault.didYouMean', { near }) : t('sandboxFault.opsListed'));
  }
  if (key === 'missingOp') return new UsageError(t('sandboxFault.missingOp'), t('sandboxFault.opsListed'));
  return new UsageError(t(`sandboxFault.${key}`, { flag: flagName(err.field) }));
}

export async function runAddFault(body: AddFaultBody, deps: Deps, sandboxClient: SandboxOf): Promise<void> {
  const fault = await sandboxClient(deps).addFault(body);
  if (wantsJson(deps)) {
    printJson(deps.io, fault);
    return;
  }
  say(deps.io, fault.id);
  note(deps.io, t('sandboxFault.added', { id: fault.id, what: describeFault(fault), whom: whom(fault), limit: limitOf(fault) }));
}

export async function runListFaults(deps: Deps, sandboxClient: SandboxOf): Promise<void> {
  const { items } = await sandboxClient(deps).listFaults();
  if (wantsJson(deps)) {
    printJson(deps.io, { items });
    return;
  }
  printTable(
    deps.io,
    items,
    [
      { header: t('sandboxFault.columns.id'), value: (f) => f.id },
      { header: t('sandboxFault.columns.seller'), value: whom },
      { header: t('sandboxFault.columns.fault'), value: describeFault },
      { header: t('sandboxFault.columns.limit'), value: limitOf },
      { header: t('sandboxFault.columns.hits'), value: (f) => f.hits },
    ],
    t('sandboxFault.none'),
  );
}

export async function runClearFaults(opts: { id?: string | undefined }, deps: Deps, sandboxClient: SandboxOf): Promise<void> {
  const sb = sandboxClient(deps);
  const answer = opts.id === undefined ? await sb.clearFaults() : await sb.clearFault(opts.id);
  if (wantsJson(deps)) printJson(deps.io, answer);
  else say(deps.io, t('sandboxFault.cleared', { count: answer.cleared }));
}

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`);

/** `orders.deliver → 503`, `* → +2s`, `webhooks: delay 5s`. */
function describeFault(f: Fault): string {
  if (f.hooks !== undefined) return t('sandboxFault.hooksFault', { kind: f.hooks === 'delay' ? `delay ${seconds(f.delayMs ?? 0)}` : f.hooks });
  const effect =
    f.status !== undefined ? statusOf(f) : f.latencyMs !== undefined ? `+${seconds(f.latencyMs)}` : f.drop ? 'drop' : 'drop-after';
  return `${f.op} → ${effect}`;
}

/** `503`, or `503, Retry-After 5s` when the fault names one. */
const statusOf = (f: Fault): string =>
  f.retryAfterMs === undefined ? String(f.status) : t('sandboxFault.statusRetryAfter', { status: f.status, after: seconds(f.retryAfterMs) });

function whom(f: Fault): string {
  if (f.op?.startsWith('telegram.')) return f.bot === undefined ? t('sandboxFault.everyBot') : t('sandboxFault.oneBot', { bot: f.bot });
  return f.sellerId ?? t('sandboxFault.everySeller');
}

function limitOf(f: Fault): string {
  if (f.endedAt !== null) return t('sandboxFault.ended', { at: dateTime(f.endedAt) ?? f.endedAt });
  const parts: string[] = [];
  if (f.remaining !== null) parts.push(t('sandboxFault.timesLeft', { count: f.remaining }));
  if (f.expiresAt !== null) parts.push(t('sandboxFault.until', { at: dateTime(f.expiresAt) ?? f.expiresAt }));
  if (f.every !== undefined) parts.push(t('sandboxFault.everyNth', { n: f.every }));
  return parts.length ? parts.join(', ') : t('sandboxFault.untilCleared');
}
