/**
 * `seller doctor`: a read-only sweep of the seller's own account that reports where the service's
 * answers differ from the contract this package was built on (sdk/doctor). Only GET requests are
 * sent; nothing is changed. The report names fields and paths, never values, except the values of
 * enum-like fields (an unknown order status such as `on_hold`), truncated: no secret, stock item,
 * key or buyer data is printed.
 *
 * Human table by default; `--json` prints the whole report (package version, base URL origin,
 * date, operations checked and skipped with the reason), a file to attach to a bug report.
 * Exit 0: no difference; 1: differences (or an operation failed); 4: authentication.
 *
 * The comparison loads zod and ajv; this module is loaded only when `doctor` is invoked.
 */
import type { Difference, DoctorReport, OperationOutcome } from '../../sdk/doctor/index.ts';
import { positiveInt, type Register } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { CliError, EXIT, UsageError } from '../lib/errors.ts';
import { note, printJson, printTable, say, warn } from '../lib/output.ts';
import { has, t, tOr } from '../i18n/index.ts';

export interface DoctorCommandOptions {
  limit: number;
  pages: number;
}

/** A difference's kind in words (`doctor.kinds.*`); a kind this version does not know as it came. */
const kindText = (kind: Difference['kind']): string => tOr(`doctor.kinds.${kind}`, kind);

export const register: Register = (command, app) => {
  command
    .description(t('doctor.description'))
    .option('--limit <n>', t('doctor.options.limit'), positiveInt, 5)
    .option('--pages <n>', t('doctor.options.pages'), positiveInt, 2)
    .addHelpText('after', t('doctor.help'))
    .action(app.run((o: { limit: number; pages: number }): DoctorCommandOptions => ({ limit: o.limit, pages: o.pages }), runDoctorCommand));
};

export async function runDoctorCommand(opts: DoctorCommandOptions, deps: Deps): Promise<void> {
  if (opts.limit > 200) throw new UsageError(t('doctor.limitAtMost'));
  const client = deps.client();
  const { runDoctor } = await import('../../sdk/doctor/index.ts');
  const json = wantsJson(deps);
  const progress = !json && deps.io.stderrIsTTY;
  const report = await runDoctor(client, {
    limit: opts.limit,
    pages: opts.pages,
    onOperation: progress ? (id) => deps.io.stderr.write(`\r${t('doctor.checking', { id })}\u001b[K`) : undefined,
  });
  if (progress) deps.io.stderr.write('\r\u001b[K');
  if (json) printJson(deps.io, report);
  else printReport(deps, report);
  const failed = report.operations.filter((o) => o.outcome === 'failed');
  if (report.differences.length > 0 || failed.length > 0) {
    const differences = t('doctor.differences', { count: report.differences.length });
    const failures = t('doctor.failures', { count: failed.length });
    const found =
      report.differences.length > 0 && failed.length > 0
        ? t('doctor.foundBoth', { differences, failures })
        : t('doctor.found', { what: report.differences.length > 0 ? differences : failures });
    throw new CliError(found, EXIT.error, t('doctor.attach'));
  }
}

/** Why an operation was skipped, from its data (sdk/doctor/sweep.ts `SkipReason`); the SDK's English for a code not known here. */
function skipReason(op: OperationOutcome): string {
  const why = op.skip;
  if (why === undefined || !has(`doctor.reasons.${why.code}`)) return op.reason ?? '';
  return t(`doctor.reasons.${why.code}`, { ...why, ...('params' in why ? { params: why.params.join(', ') } : {}) });
}

/** Shortens a cell for the table. */
const clip = (text: string | undefined, max: number) => (text === undefined ? undefined : text.length > max ? `${text.slice(0, max - 1)}…` : text);

function printReport(deps: Deps, report: DoctorReport): void {
  const { io } = deps;
  const checked = report.operations.filter((o) => o.outcome === 'checked');
  const skipped = report.operations.filter((o) => o.outcome === 'skipped');
  const failed = report.operations.filter((o) => o.outcome === 'failed');
  note(io, t('doctor.checked', { count: checked.length, baseUrl: report.baseUrl, version: report.packageVersion }));
  for (const op of skipped) note(io, t('doctor.skipped', { id: op.id, reason: skipReason(op) }));
  for (const op of failed) warn(io, t('doctor.failed', { id: op.id, reason: op.reason ?? '' }));
  if (report.differences.length === 0) {
    say(io, t('doctor.noDifferences'));
    return;
  }
  printTable(io, report.differences, [
    { header: t('doctor.columns.operation'), value: (d) => d.operation },
    { header: t('doctor.columns.kind'), value: (d) => kindText(d.kind) },
    { header: t('doctor.columns.path'), value: (d) => d.path || t('doctor.wholeAnswer') },
    { header: t('doctor.columns.count'), value: (d) => d.count },
    { header: t('doctor.columns.example'), value: (d) => (d.kind === 'unknown_value' && d.values ? d.values.join(', ') : d.kind === 'unknown_field' || d.kind === 'missing_field' ? d.examplePath : d.example) },
    { header: t('doctor.columns.expected'), value: (d) => clip(d.expected, 60) },
  ]);
}
