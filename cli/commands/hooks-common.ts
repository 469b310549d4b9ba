/**
 * Pieces shared by the `seller hooks` verbs: where a signing secret comes from (a file, the
 * environment, stdin) and where a new one goes (stdout once, or a 0600 file), raw bytes from
 * stdin or a file, header lists, times, and one line per received delivery.
 */
import { language, t, tOr } from '../i18n/index.ts';
import { clockTime, dateTime } from '../i18n/format.ts';
import { randomBytes } from 'node:crypto';
import { InvalidArgumentError } from 'commander';
import { WEBHOOK_HEADERS } from '../../sdk/contract/events.ts';
import { AUTH_CODES } from '../../sdk/contract/constants.ts';
import { SellerError } from '../../sdk/errors.ts';
import type { Deps } from '../lib/deps.ts';
import { errorLine, UsageError } from '../lib/errors.ts';
import { readTextInput } from '../lib/input.ts';
import { readAll, type IO } from '../lib/io.ts';
import type { SellerClient } from '../../sdk/client.ts';
import type { ProbeHit } from '../lib/records.ts';
import { note, say, warn } from '../lib/output.ts';

/** The environment variable a receiver (and `hooks listen` / `hooks verify`) reads the secret from. */
export const SECRET_ENV = 'SERVICE_WEBHOOK_SECRET';

/** `--secret-file FILE or SERVICE_WEBHOOK_SECRET`, in the active language. */
export const secretSourcesHelp = (): string => t('hooks.secretSources', { env: SECRET_ENV });

// ---------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------

/**
 * The secrets in a text: one per line, blank lines and `#` comments skipped, surrounding blanks
 * dropped. Several lines are several secrets (old and new while rotating: any of them may match).
 */
export function parseSecrets(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

export interface SecretSourceOptions {
  secretFile?: string | undefined;
  secretStdin?: boolean | undefined;
}

/**
 * The signing secret(s), from `--secret-file`, `--secret-stdin` or `SERVICE_WEBHOOK_SECRET`, in
 * that order. The service shows a secret only once (at `hooks set` and `hooks rotate-secret`), so
 * there is no fallback to the server: without one of these it is a usage error.
 */
export async function loadSecrets(deps: Deps, opts: SecretSourceOptions, allowStdin: boolean): Promise<string[]> {
  if (opts.secretFile !== undefined && opts.secretStdin) {
    throw new UsageError(t('hooks.giveTheSecretEither'));
  }
  let secrets: string[];
  let source: string;
  if (opts.secretFile !== undefined) {
    secrets = parseSecrets(await readTextInput(deps, opts.secretFile, '--secret-file'));
    // i18next-instrument-ignore-next-line: an option as typed, named in a message
    source = `--secret-file ${opts.secretFile}`;
  } else if (opts.secretStdin) {
    secrets = parseSecrets(await readAll(deps.io.stdin));
    source = '--secret-stdin';
  } else if (deps.io.env[SECRET_ENV] !== undefined && deps.io.env[SECRET_ENV] !== '') {
    secrets = parseSecrets(deps.io.env[SECRET_ENV]!);
    source = SECRET_ENV;
  } else {
    const sources = allowStdin ? t('hooks.secretSourcesStdin', { env: SECRET_ENV }) : secretSourcesHelp();
    throw new UsageError(
      t('hooks.aSigningSecretIs', { sources }),
      t('hooks.secretShownOnce'),
    );
  }
  if (secrets.length === 0) throw new UsageError(t('hooks.theSigningSecretFrom', { source }));
  return secrets;
}

// ---------------------------------------------------------------------------------------------
// Writing a new secret
// ---------------------------------------------------------------------------------------------

/**
 * A file made ready for a secret BEFORE the call that returns it, so that a path that cannot be
 * written fails before the one-time secret exists. The secret goes to a 0600 temporary file next
 * to the target, then is renamed over it (an existing file is replaced, and keeps no other mode).
 */
export interface SecretFile {
  path: string;
  write(secret: string): Promise<void>;
  /** Removes the temporary file (the call failed or returned no secret). */
  discard(): Promise<void>;
}

export async function prepareSecretFile(path: string): Promise<SecretFile> {
  const { open, rename, rm } = await import('node:fs/promises');
  const { dirname, basename, join } = await import('node:path');
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(temp, 'wx', 0o600);
  } catch (error) {
    throw new UsageError(t('hooks.secretFileCannotWrite', { path, why: (error as NodeJS.ErrnoException).code ?? (error as Error).message }));
  }
  let closed = false;
  const close = async () => {
    if (!closed) {
      closed = true;
      await handle.close();
    }
  };
  return {
    path,
    async write(secret) {
      await handle.writeFile(`${secret}\n`, 'utf8');
      await handle.chmod(0o600);
      await close();
      await rename(temp, path);
    },
    async discard() {
      await close().catch(() => {});
      await rm(temp, { force: true });
    },
  };
}

/**
 * Hands a secret the service returned once to the person: into the prepared file, or on stdout
 * with a warning. If writing the file fails now, the secret is printed instead so it is not lost.
 */
export async function deliverSecret(io: IO, secret: string, file: SecretFile | undefined, quiet: boolean): Promise<void> {
  if (file) {
    try {
      await file.write(secret);
      if (!quiet) note(io, t('hooks.theSigningSecretIs', { path: file.path }));
      return;
    } catch (error) {
      await file.discard();
      warn(io, t('hooks.couldNotWriteHere', { path: file.path, message: (error as Error).message }));
    }
  }
  if (!quiet) note(io, t('hooks.signingSecret'));
  say(io, secret);
  warn(io, t('hooks.onlyTimeShownEnv', { env: SECRET_ENV }));
}

// ---------------------------------------------------------------------------------------------
// Headers
// ---------------------------------------------------------------------------------------------

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `Name: value` → [lowercase name, value]; anything else is a usage error mentioning `where`. */
export function parseHeaderLine(line: string, where: string): [string, string] {
  const colon = line.indexOf(':');
  const name = colon > 0 ? line.slice(0, colon).trim() : '';
  if (!HEADER_NAME.test(name)) throw new UsageError(t('hooks.expectedNameValueGot', { where, line }));
  return [name.toLowerCase(), line.slice(colon + 1).trim()];
}

/**
 * The headers of a `--headers-file`: a JSON object (as `seller hooks probe --json` prints under
 * `headers`), or `Name: value` lines (an HTTP dump; a request or status line at the top, blank
 * lines and `#` comments are skipped).
 */
export function parseHeadersText(text: string, where: string): Record<string, string> {
  const trimmed = text.trim();
  const headers: Record<string, string> = {};
  if (trimmed.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch (error) {
      throw new UsageError(t('hooks.notValidJson', { where, message: (error as Error).message }));
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new UsageError(t('hooks.expectedAJsonObject', { where }));
    }
    for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
      if (!HEADER_NAME.test(name)) throw new UsageError(t('hooks.isNotAHeader', { where, name }));
      const first = Array.isArray(value) ? value[0] : value;
      if (typeof first !== 'string' && typeof first !== 'number') {
        throw new UsageError(t('hooks.theValueOfMust', { where, name }));
      }
      headers[name.toLowerCase()] = String(first);
    }
    return headers;
  }
  const lines = trimmed.split(/\r?\n/);
  lines.forEach((line, index) => {
    if (line.trim() === '' || line.trimStart().startsWith('#')) return;
    if (index === 0 && /^(HTTP\/\d|[A-Z]+ \S+ HTTP\/\d)/.test(line)) return;
    const [name, value] = parseHeaderLine(line, `${where} line ${index + 1}`);
    headers[name] = value;
  });
  return headers;
}

// ---------------------------------------------------------------------------------------------
// Times and numbers
// ---------------------------------------------------------------------------------------------

/** commander argParser: unix seconds, unix milliseconds (13+ digits) or an ISO time → milliseconds. */
export function parseInstant(value: string): number {
  const text = value.trim();
  if (/^\d{1,12}$/.test(text)) return Number(text) * 1000;
  if (/^\d{13,15}$/.test(text)) return Number(text);
  const ms = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(ms)) throw new InvalidArgumentError(t('hooks.mustBeUnixSeconds'));
  return ms;
}

/** commander argParser for a port 0–65535 (0: any free port). */
export function portNumber(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65_535) throw new InvalidArgumentError(t('hooks.mustBeAPort'));
  return Number(value);
}

/** commander argParser for a positive number of seconds. */
export function positiveNumber(value: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(n > 0)) throw new InvalidArgumentError(t('hooks.mustBeAPositive'));
  return n;
}

/** An authentication or permission failure: a polling loop stops on these instead of retrying. */
export function isAuthFailure(error: unknown): boolean {
  return error instanceof SellerError && (AUTH_CODES as readonly string[]).includes(error.code);
}

// ---------------------------------------------------------------------------------------------
// Delivery lines
// ---------------------------------------------------------------------------------------------

/** The x-service-* facts of a received request. */
export interface DeliveryFacts {
  event: string | undefined;
  delivery: string | undefined;
  attempt: string | undefined;
}

/** Reads the event, delivery and attempt headers (any case) of a header record. */
export function deliveryFacts(headers: Readonly<Record<string, string | string[] | undefined>>): DeliveryFacts {
  const get = (name: string) => {
    for (const [key, value] of Object.entries(headers)) {
      if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value;
    }
    return undefined;
  };
  return { event: get(WEBHOOK_HEADERS.event), delivery: get(WEBHOOK_HEADERS.delivery), attempt: get(WEBHOOK_HEADERS.attempt) };
}

/**
 * `HH:MM:SS` of an ISO time on a terminal (the date is rarely news there), the full time when piped.
 * English shows the service's UTC time as it always did; other languages the user's zone (`--utc`).
 */
export function shortTime(iso: string, tty: boolean): string {
  if (language() === 'en') return tty ? iso.slice(11, 19) : iso;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  return tty ? clockTime(ms) : (dateTime(iso) ?? iso);
}

/** A subscription's status in words (`hooks.statuses.*`); a status this version does not know as it came. */
export function hookStatus(status: string): string {
  return tOr(`hooks.statuses.${status}`, status);
}

/**
 * A failed forward said for people, from its data: a time limit (`timeoutMs`) in the active
 * language; else the system's code (`ECONNREFUSED`) as the record keeps it.
 */
export function failureText(failure: { error: string; timeoutMs?: number | undefined }): string {
  if (failure.timeoutMs === undefined) return failure.error;
  return failure.timeoutMs % 1000 === 0 ? t('hooks.noAnswerWithinS', { n: failure.timeoutMs / 1000 }) : t('hooks.noAnswerWithinMs', { n: failure.timeoutMs });
}

/**
 * One read of the probe receiver's hits, for a loop that polls it (`hooks probe`, the relay): the
 * hits, or `undefined` after a failure another poll may mend (said on stderr) or once `signal`
 * stopped the loop. A failure no retry mends (a key that cannot be used), or any failure with
 * `--once`, is thrown.
 */
export async function pollProbe(
  client: SellerClient,
  io: IO,
  opts: { once?: boolean | undefined; intervalSeconds: number },
  signal: AbortSignal,
): Promise<ProbeHit[] | undefined> {
  try {
    return (await client.hooks.probe({ limit: 50 }, { signal })).items;
  } catch (error) {
    if (signal.aborted) return undefined;
    if (opts.once || isAuthFailure(error)) throw error;
    const what = errorLine(error);
    warn(io, t('hooks.pollingFailedRetryingIn', { what, seconds: opts.intervalSeconds }));
    return undefined;
  }
}
