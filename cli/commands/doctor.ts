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
import type { Difference, DoctorReport } from '../../sdk/doctor/index.ts';
import { positiveInt, type Register } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { CliError, EXIT, UsageError } from '../lib/errors.ts';
import { note, printJson, printTable, say, warn } from '../lib/output.ts';

export interface DoctorCommandOptions {
  limit: number;
  pages: number;
}

const KIND_TEXT: Record<Difference['kind'], string> = {
  unknown_field: 'unknown field',
  unknown_value: 'unknown value',
  missing_field: 'missing field',
  wrong_type: 'wrong type',
  wrong_format: 'wrong format',
  other_status: 'other status',
  other_paging: 'other next page',
  unknown_error_code: 'unknown error code',
};

export const register: Register = (command, app) => {
  command
    .description('Compare what the service answers with the contract of this package (read-only)')
    .option('--limit <n>', 'records read per list page (1-200)', positiveInt, 5)
    .option('--pages <n>', 'pages read of each list', positiveInt, 2)
    .addHelpText(
      'after',
      [
        '',
        'Calls every GET of the API your key may call (GET /me tells the scopes), reads a little of',
        'each list, and reads single records with ids taken from the lists. Nothing is changed.',
        'Each difference is listed once: operation, kind, path (items[].status), how often, and for',
        'unknown enum values an example. No secret, stock item, key or buyer data is printed.',
        '',
        'Examples:',
        '  $ seller doctor',
        '  $ seller doctor --json > doctor.json    # attach it to a bug report',
        '',
        'Exit codes: 0 no difference, 1 differences found (or an operation failed), 4 authentication.',
      ].join('\n'),
    )
    .action(app.run((o: { limit: number; pages: number }): DoctorCommandOptions => ({ limit: o.limit, pages: o.pages }), runDoctorCommand));
};

export async function runDoctorCommand(opts: DoctorCommandOptions, deps: Deps): Promise<void> {
  if (opts.limit > 200) throw new UsageError('--limit: at most 200');
  const client = deps.client();
  const { runDoctor } = await import('../../sdk/doctor/index.ts');
  const json = wantsJson(deps);
  const progress = !json && deps.io.stderrIsTTY;
  const report = await runDoctor(client, {
    limit: opts.limit,
    pages: opts.pages,
    onOperation: progress ? (id) => deps.io.stderr.write(`\rchecking ${id}…\u001b[K`) : undefined,
  });
  if (progress) deps.io.stderr.write('\r\u001b[K');
  if (json) printJson(deps.io, report);
  else printReport(deps, report);
  const failed = report.operations.filter((o) => o.outcome === 'failed');
  if (report.differences.length > 0 || failed.length > 0) {
    const parts = [
      ...(report.differences.length > 0 ? [`${report.differences.length} difference${report.differences.length === 1 ? '' : 's'} from the contract`] : []),
      ...(failed.length > 0 ? [`${failed.length} operation${failed.length === 1 ? '' : 's'} failed`] : []),
    ];
    throw new CliError(`found ${parts.join(' and ')}`, EXIT.error, 'attach the output of `seller doctor --json` to a bug report (it holds no secret and no buyer data)');
  }
}

/** Shortens a cell for the table. */
const clip = (text: string | undefined, max: number) => (text === undefined ? undefined : text.length > max ? `${text.slice(0, max - 1)}…` : text);

function printReport(deps: Deps, report: DoctorReport): void {
  const { io } = deps;
  const checked = report.operations.filter((o) => o.outcome === 'checked');
  const skipped = report.operations.filter((o) => o.outcome === 'skipped');
  const failed = report.operations.filter((o) => o.outcome === 'failed');
  note(io, `Checked ${checked.length} operations at ${report.baseUrl} against the contract of service-seller ${report.packageVersion}.`);
  for (const op of skipped) note(io, `skipped ${op.id}: ${op.reason ?? ''}`);
  for (const op of failed) warn(io, `${op.id} failed: ${op.reason ?? ''}`);
  if (report.differences.length === 0) {
    say(io, 'No differences from the contract.');
    return;
  }
  printTable(io, report.differences, [
    { header: 'OPERATION', value: (d) => d.operation },
    { header: 'KIND', value: (d) => KIND_TEXT[d.kind] ?? d.kind },
    { header: 'PATH', value: (d) => d.path || '(answer)' },
    { header: 'COUNT', value: (d) => d.count },
    { header: 'EXAMPLE', value: (d) => (d.kind === 'unknown_value' && d.values ? d.values.join(', ') : d.kind === 'unknown_field' || d.kind === 'missing_field' ? d.examplePath : d.example) },
    { header: 'EXPECTED', value: (d) => clip(d.expected, 60) },
  ]);
}
