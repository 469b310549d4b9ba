/**
 * `seller orders watch --exec CMD`: checks the command before the watch starts, and runs it for each
 * change with the order JSON on stdin and `SERVICE_ORDER_ID`, `SERVICE_ORDER_STATUS` in its environment.
 */
import { t } from '../i18n/index.ts';
import { word } from '../i18n/format.ts';
import type { Deps } from '../lib/deps.ts';
import { UsageError } from '../lib/errors.ts';
import { warn } from '../lib/output.ts';
import type { Order } from '../lib/records.ts';

/** Characters after which the first word of a command is the shell's to read, not ours. */
const SHELL_SYNTAX = /["'`$\\|&;<>(){}[\]*?~=!#]/;

/**
 * Fails before the watch starts when `--exec` names a program that is not there, so that a typo does
 * not surface as a warning per change hours later: a first word with a `/` must be an executable
 * file, another must be something the shell finds (`command -v`: a program on PATH, a builtin, a
 * function). A first word with shell syntax in it (quotes, `$`, an assignment …) is left to the shell.
 * Not on Windows, whose shell is another.
 */
export async function checkExec(command: string, env: Record<string, string | undefined>): Promise<void> {
  const word = command.trim().split(/\s+/)[0] ?? '';
  if (word === '' || process.platform === 'win32' || SHELL_SYNTAX.test(word)) {
    if (word === '') throw new UsageError(t('ordersWatchExec.execNeedsACommand'), t('ordersWatchExec.eGExecOn'));
    return;
  }
  if (word.includes('/')) {
    const { access, stat } = await import('node:fs/promises');
    const { constants } = await import('node:fs');
    let ok: boolean;
    try {
      ok = (await stat(word)).isFile();
      if (ok) await access(word, constants.X_OK);
    } catch {
      ok = false;
    }
    if (!ok) throw new UsageError(t('ordersWatchExec.execIsNotAn', { word }), t('ordersWatchExec.checkThePathOr', { word }));
    return;
  }
  const { spawnSync } = await import('node:child_process');
  // i18next-instrument-ignore-next-line: a shell command, not text for a person
  const found = spawnSync('/bin/sh', ['-c', `command -v -- ${word}`], { env: env as NodeJS.ProcessEnv, stdio: 'ignore' });
  if (found.status !== 0) throw new UsageError(t('ordersWatchExec.execIsNotA', { word }), t('ordersWatchExec.checkItsNameOr'));
}

/** Runs `command` for one change; a failure is a warning, never the end of the watch. */
export async function runExec(command: string, order: Order, deps: Deps, json: boolean): Promise<void> {
  const { io } = deps;
  const { spawn } = await import('node:child_process');
  const outcome = await new Promise<{ code: number | null; signal: NodeJS.Signals | null } | { error: Error }>((resolve) => {
    const child = spawn(command, {
      shell: true,
      env: { ...io.env, SERVICE_ORDER_ID: order.id, SERVICE_ORDER_STATUS: order.status },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.once('error', (error) => resolve({ error }));
    child.stdout.setEncoding('utf8').on('data', (text: string) => (json ? io.stderr : io.stdout).write(text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => io.stderr.write(text));
    child.once('close', (code, signal) => resolve({ code, signal }));
    child.stdin.on('error', () => {}); // the command need not read its input
    child.stdin.end(`${JSON.stringify(order)}\n`);
  });
  if ('error' in outcome) warn(io, t('ordersWatchExec.execCouldNotRun', { id: order.id, message: outcome.error.message }));
  else if (outcome.signal) warn(io, t('ordersWatchExec.execWasKilledBy', { signal: outcome.signal, id: order.id }));
  else if (outcome.code !== 0) warn(io, t('ordersWatchExec.execFailedForExit', { id: order.id, status: word('orderStatus', order.status), code: outcome.code }));
}
