/**
 * Runs a rule's action: a shell command (the JSON input on stdin, `SERVICE_*` variables in its
 * environment, its stdout the answer) or an HTTP hook (the input POSTed as JSON, the body of a 2xx
 * answer the answer). Node only; `node:child_process` is loaded on first use.
 *
 * A failure (a non-zero exit, a kill, a timeout, a non-2xx answer, no connection) is an
 * `ActionError` with a short reason; what the command wrote to stderr is not kept (it may hold
 * anything), only its exit code.
 */

export interface ActionSpec {
  command?: string | undefined;
  hook?: string | undefined;
  headers?: Record<string, string> | undefined;
  timeoutSeconds: number;
}

export class ActionError extends Error {
  override name = 'ActionError';
}

/** Runs the action with `input`; resolves with its output text (trimmed). */
export async function runAction(spec: ActionSpec, input: unknown, env: Record<string, string>, signal?: AbortSignal): Promise<string> {
  if (spec.command !== undefined) return runCommand(spec.command, input, env, spec.timeoutSeconds * 1000);
  if (spec.hook !== undefined) return callHook(spec.hook, spec.headers ?? {}, input, spec.timeoutSeconds * 1000, signal);
  throw new ActionError('the action has neither a command nor a hook');
}

async function runCommand(command: string, input: unknown, env: Record<string, string>, timeoutMs: number): Promise<string> {
  const { spawn } = await import('node:child_process');
  return new Promise((resolve, reject) => {
    // Its own process group: a timeout ends the command and what it started.
    const child = spawn(command, { shell: true, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'ignore'], detached: process.platform !== 'win32' });
    let out = '';
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
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new ActionError(`the command could not start: ${error.message}`));
    });
    child.once('close', (code, killedBy) => {
      clearTimeout(timer);
      if (timedOut) reject(new ActionError(`the command timed out after ${timeoutMs / 1000} s`));
      else if (killedBy) reject(new ActionError(`the command was killed by ${killedBy}`));
      else if (code !== 0) reject(new ActionError(`the command failed with exit code ${code}`));
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
    if (timeout.aborted) throw new ActionError(`the hook did not answer within ${timeoutMs / 1000} s`);
    const why = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    throw new ActionError(`the hook could not be reached: ${why}`);
  }
  const text = await res.text();
  if (!res.ok) throw new ActionError(`the hook answered HTTP ${res.status}`);
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
    throw new ActionError('the action did not answer JSON ({"nextChargeDay"?, "note"?, "secret"?})');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ActionError('the action did not answer a JSON object');
  const out: DeliveryOutput = {};
  for (const [key, field] of Object.entries(value)) {
    if (!['nextChargeDay', 'note', 'secret'].includes(key)) throw new ActionError(`the action answered an unknown field "${key}"`);
    if (field === null || field === undefined) continue;
    if (typeof field !== 'string') throw new ActionError(`the action's "${key}" is not a string`);
    out[key as keyof DeliveryOutput] = field;
  }
  if (out.nextChargeDay !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(out.nextChargeDay)) throw new ActionError('the action\'s "nextChargeDay" is not YYYY-MM-DD');
  return out;
}
