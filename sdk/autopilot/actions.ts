/**
 * Runs a rule's action: a shell command (the JSON input on stdin, `SERVICE_*` variables in its
 * environment, its stdout the answer) or an HTTP hook (the input POSTed as JSON, the body of a 2xx
 * answer the answer). Node only; `node:child_process` is loaded on first use.
 *
 * A failure (a non-zero exit, a kill, a timeout, a non-2xx answer, no connection) is an
 * `ActionError` with a short reason that says why: the last lines the command wrote to stderr (or
 * the last of a hook's answer), bounded and on one line ({@link lastLines}). What a command writes
 * to stderr is read only for that, and only its tail is kept; a successful action's is dropped.
 */
import { englishOf, part, type AutopilotSay } from './words.ts';

export interface ActionSpec {
  command?: string | undefined;
  hook?: string | undefined;
  headers?: Record<string, string> | undefined;
  timeoutSeconds: number;
}

export class ActionError extends Error {
  override name = 'ActionError';
  /** What failed, as data: a form `action.*` of words.ts and its values (with the output, `action.output`); undefined when made from a bare message. */
  readonly say: AutopilotSay | undefined;
  constructor(
    /** What failed: its words as data (`part('action.exitCode', { exitCode: 3 })`), or a message in English. */
    what: string | AutopilotSay,
    /** The last lines of the command's stderr (or of a hook's answer), on one line; undefined when it wrote nothing. */
    readonly output?: string | undefined,
  ) {
    const said = typeof what === 'string' ? undefined : output ? part('action.output', { action: what, output }) : what;
    super(said ? englishOf(said) : output ? `${what as string}: ${output}` : (what as string));
    this.say = said;
  }
}

/** How much of a failed action's stderr is said: its last lines, at most this many characters. */
export const OUTPUT_TAIL_CHARS = 240;
const OUTPUT_TAIL_LINES = 3;
/** What is read of a command's stderr while it runs (its end is what counts). */
const STDERR_KEPT = 8192;

/**
 * The last lines of `text` (up to three that are not blank), joined by ` | ` on one line, control
 * characters dropped, and cut to their last {@link OUTPUT_TAIL_CHARS} characters; undefined when blank.
 */
export function lastLines(text: string): string | undefined {
  const lines = text
    .split(/\r?\n|\r/)
    .map((line) => line.replace(/[\u0000-\u001f\u007f]/g, '').trim())
    .filter((line) => line !== '');
  if (lines.length === 0) return undefined;
  const joined = lines.slice(-OUTPUT_TAIL_LINES).join(' | ');
  return joined.length > OUTPUT_TAIL_CHARS ? `…${joined.slice(-(OUTPUT_TAIL_CHARS - 1))}` : joined;
}

/** Runs the action with `input`; resolves with its output text (trimmed). */
export async function runAction(spec: ActionSpec, input: unknown, env: Record<string, string>, signal?: AbortSignal): Promise<string> {
  if (spec.command !== undefined) return runCommand(spec.command, input, env, spec.timeoutSeconds * 1000);
  if (spec.hook !== undefined) return callHook(spec.hook, spec.headers ?? {}, input, spec.timeoutSeconds * 1000, signal);
  throw new ActionError(part('action.none'));
}

/** Loaded once (a bundle's `import()` of a built-in copies the module's exports at every call: a burst spawns a command per order). */
let childProcess: Promise<typeof import('node:child_process')> | undefined;

async function runCommand(command: string, input: unknown, env: Record<string, string>, timeoutMs: number): Promise<string> {
  const { spawn } = await (childProcess ??= import('node:child_process'));
  return new Promise((resolve, reject) => {
    // Its own process group: a timeout ends the command and what it started.
    const child = spawn(command, { shell: true, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    let out = '';
    let err = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // already gone
      }
    }, timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      out += text;
      if (out.length > 1_000_000) child.kill('SIGKILL');
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      err = (err + text).slice(-STDERR_KEPT);
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new ActionError(part('action.cannotStart', { why: error.message })));
    });
    child.once('close', (code, killedBy) => {
      clearTimeout(timer);
      const said = lastLines(err);
      if (timedOut) reject(new ActionError(part('action.timedOut', { seconds: timeoutMs / 1000 }), said));
      else if (killedBy) reject(new ActionError(part('action.killed', { signal: killedBy }), said));
      else if (code !== 0) reject(new ActionError(part('action.exitCode', { exitCode: code }), said));
      else resolve(out.trim());
    });
    child.stdin.on('error', () => {}); // the command need not read its input
    child.stdin.end(`${JSON.stringify(input)}\n`);
  });
}

async function callHook(url: string, headers: Record<string, string>, input: unknown, timeoutMs: number, signal?: AbortSignal): Promise<string> {
  const timeout = AbortSignal.timeout(timeoutMs);
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'seller-autopilot', ...headers },
      body: JSON.stringify(input),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (error) {
    if (timeout.aborted) throw new ActionError(part('action.hookTimedOut', { seconds: timeoutMs / 1000 }));
    const why = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    throw new ActionError(part('action.hookUnreachable', { why }));
  }
  const text = await res.text();
  if (!res.ok) throw new ActionError(part('action.hookStatus', { httpStatus: res.status }), lastLines(text.slice(-STDERR_KEPT)));
  return text.trim();
}

/** What a deliver action may answer (JSON; an empty answer is `{}`). */
export interface DeliveryOutput {
  nextChargeDay?: string | undefined;
  note?: string | undefined;
  secret?: string | undefined;
}

/** Reads a deliver action's answer; an `ActionError` says what is wrong with it (never its content). */
export function parseDelivery(text: string): DeliveryOutput {
  if (text === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ActionError(part('action.notJson'));
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ActionError(part('action.notObject'));
  const out: DeliveryOutput = {};
  for (const [key, field] of Object.entries(value)) {
    if (!['nextChargeDay', 'note', 'secret'].includes(key)) throw new ActionError(part('action.unknownField', { field: key }));
    if (field === null || field === undefined) continue;
    if (typeof field !== 'string') throw new ActionError(part('action.notString', { field: key }));
    out[key as keyof DeliveryOutput] = field;
  }
  if (out.nextChargeDay !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(out.nextChargeDay)) throw new ActionError(part('action.nextChargeFormat'));
  return out;
}
