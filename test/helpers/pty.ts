/**
 * The real `seller` binary on a pseudo-terminal, for tests of its questions: util-linux `script`
 * gives the child a terminal (stdin and stdout are TTYs, so @inquirer/prompts asks), forwards what the
 * test types to it and copies what it draws back. `answer(question, keys)` waits until the screen
 * shows `question` (after what was already answered) and types `keys` (`\r` is Enter).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { childEnv, ROOT } from './cli.ts';
import { waitFor } from './wait.ts';

export interface PtyRun {
  /** Everything drawn so far, escape sequences removed. */
  screen(): string;
  /** Waits for `text` (a string or pattern) to be drawn after the last answer, then types `keys`. */
  answer(text: string | RegExp, keys: string): Promise<void>;
  /** Waits for `text` to be drawn after the last answer. */
  expectDrawn(text: string | RegExp): Promise<void>;
  /** Sends `signal` to the command (through `script`, which passes it on). */
  kill(signal: NodeJS.Signals): void;
  /** The exit code once the command ended. */
  exit: Promise<number | null>;
}

/** Commands still running, ended by `closePtys()` (a failed test leaves none behind). */
const running = new Set<import('node:child_process').ChildProcess>();

/** Ends every command still running on a pseudo-terminal (`script` passes SIGTERM on to it); for afterEach. */
export function closePtys(): void {
  for (const child of running) child.kill('SIGTERM');
  running.clear();
}

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** What a terminal shows of `raw`, roughly: the text without colours, cursor moves and erasures. */
// eslint-disable-next-line no-control-regex
const plain = (raw: string) => raw.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\u001b[()][A-Z0-9]/g, '').replace(/\r/g, '');

/** Starts `seller ARGS…` on a pseudo-terminal (English unless `env` sets LANG). */
export function sellerInPty(args: string[], env: Record<string, string | undefined> = {}): PtyRun {
  // script runs the command through $SHELL: /bin/sh here whatever the machine's is, and `exec`, since dash
  // does not replace itself with a lone command: it would take the terminal's Ctrl-C too and end with 130.
  const command = `exec ${[process.execPath, join(ROOT, 'bin/seller.js'), ...args].map(quote).join(' ')}`;
  // -q quiet, -f flush at once, -e the child's exit code, -c the command; the typescript file is /dev/null.
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: ROOT, env: { ...childEnv(env), SHELL: '/bin/sh', TERM: env.TERM ?? 'xterm', COLUMNS: '120', LINES: '40' } });
  let raw = '';
  let mark = 0;
  child.stdout.setEncoding('utf8').on('data', (text: string) => (raw += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (raw += text));
  running.add(child);
  const exit = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  const find = (text: string | RegExp) => {
    const after = plain(raw.slice(mark));
    const at = typeof text === 'string' ? after.indexOf(text) : after.search(text);
    return at >= 0 ? true : undefined;
  };
  const expectDrawn = async (text: string | RegExp) => {
    await waitFor(`"${String(text)}" on the terminal`, () => find(text), { ms: 30_000, describe: () => plain(raw).slice(-1500) });
  };
  return {
    screen: () => plain(raw),
    expectDrawn,
    answer: async (text, keys) => {
      await expectDrawn(text);
      mark = raw.length;
      child.stdin.write(keys);
    },
    kill: (signal) => child.kill(signal),
    exit,
  };
}
