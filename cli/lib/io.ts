/**
 * The streams and environment a command talks to, as one injectable object, so that every
 * command can be run in a test without a process (gh's `iostreams`).
 */

/** Something text can be written to: `process.stdout`, or a buffer in tests. */
export interface Sink {
  write(text: string): unknown;
}

export interface IO {
  stdin: NodeJS.ReadableStream;
  stdout: Sink;
  stderr: Sink;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  env: Record<string, string | undefined>;
}

/**
 * The real process. `stdin`, and whether it is a terminal, are taken on first use: making Node's
 * stdin stream costs a few milliseconds (a socket or file stream and their modules) that a command
 * which never reads it nor prompts should not pay.
 */
export function processIO(): IO {
  return {
    get stdin() {
      return process.stdin;
    },
    get stdinIsTTY() {
      return process.stdin.isTTY === true;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    env: process.env,
  };
}

/** Prompts need a person on both ends: stdin and stdout are terminals. */
export function isInteractive(io: IO): boolean {
  return io.stdinIsTTY && io.stdoutIsTTY;
}

/** Colour only for a terminal, never with `NO_COLOR` (any value) or `TERM=dumb` (clig.dev). */
export function useColor(io: IO, stream: 'stdout' | 'stderr' = 'stdout'): boolean {
  const tty = stream === 'stdout' ? io.stdoutIsTTY : io.stderrIsTTY;
  if (!tty) return false;
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') return false;
  return io.env.TERM !== 'dumb';
}

/** Reads the whole of a stream (stdin) as bytes. */
export async function readAllBytes(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array));
  }
  return Buffer.concat(chunks);
}

/** Reads the whole of a stream (stdin) as UTF-8 text. */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  return (await readAllBytes(stream)).toString('utf8');
}
