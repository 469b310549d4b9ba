/**
 * `seller hooks send URL --file F`: signs a body of the user's choosing with the user's signing
 * secret and POSTs it to a receiver with the five headers of a real delivery (event, delivery id,
 * timestamp now, attempt 1, signature), for testing a receiver offline. The signature is the SDK's
 * (`computeSignature` of sdk/webhooks/sign.ts) over the exact bytes sent.
 *
 * - The body: `--file F`, or `--file -` for stdin, sent as read (not re-serialised); a JSON object
 *   lacking envelope fields (`delivery`, `attempt`, `at`) is sent too, after a warning naming every
 *   one it lacks with a whole example. Without `--file`, `--event KIND [--data JSON]` builds a whole
 *   body from the contract (cli/commands/hooks-example.ts).
 * - The event kind: `--event KIND` (any text: a kind newer than this package too), else the body's
 *   `event` field. The delivery id: the body's `delivery` field, else a new `dlv_…`.
 * - The secret: `--secret-file FILE` or `SERVICE_WEBHOOK_SECRET` (never in argv); with several
 *   lines the first signs.
 * - Prints the answer status; exit 1 on a non-2xx answer or when the receiver cannot be reached.
 */
import { t } from '../i18n/index.ts';
import type { Command } from 'commander';
import { WEBHOOK_HEADERS } from '../../sdk/contract/events.ts';
import { computeSignature } from '../../sdk/webhooks/sign.ts';
import type { App } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { CliError, EXIT, UsageError } from '../lib/errors.ts';
import { nodeFetch } from '../lib/http.ts';
import { note, printJson, say, warn } from '../lib/output.ts';
import { readInput } from '../lib/input.ts';
import { loadSecrets, SECRET_ENV } from './hooks-common.ts';
import { parseForwardTo } from './hooks-relay.ts';
import { exampleBody, missingEnvelope, newDeliveryId, parseData } from './hooks-example.ts';

export interface HooksSendOptions {
  url: string;
  file?: string | undefined;
  /** Without `file`: fields of `data` over the contract's example of `event`. */
  data?: string | undefined;
  event?: string | undefined;
  secretFile?: string | undefined;
  timeoutMs?: number | undefined;
}

export function registerSend(noun: Command, app: App): void {
  noun
    .command('send')
    .description(t('hooks.signABodyWith'))
    .argument('<url>', t('hooks.theReceiverEG'))
    .option('--file <file>', t('hooks.theBodyToSend'))
    .option('--event <kind>', t('hooks.theXServiceEvent'))
    .option('--data <json>', t('hooksExample.sendDataOption'))
    .option('--secret-file <file>', t('hooks.theSigningSecretElse', { env: SECRET_ENV }))
    .addHelpText('after', t('hooks.sendHelp'))
    .action(
      app.run(
        (url: string, o: { file?: string; event?: string; data?: string; secretFile?: string }): HooksSendOptions => ({
          url: parseForwardTo(url, '<url>'),
          file: o.file,
          data: o.data,
          event: o.event,
          secretFile: o.secretFile,
        }),
        runHooksSend,
      ),
    );
}

export async function runHooksSend(opts: HooksSendOptions, deps: Deps): Promise<void> {
  if (opts.file !== undefined && opts.data !== undefined) throw new UsageError(t('hooksExample.fileOrData'));
  if (opts.file === undefined && opts.event === undefined) throw new UsageError(t('hooks.fileGiveTheBody'), t('hooksExample.orEvent'));
  const data = opts.data === undefined ? undefined : parseData(opts.data);
  const [secret] = await loadSecrets(deps, { secretFile: opts.secretFile }, false);
  // Without a file, a whole body from the contract: the event's example data (with --data over it), the envelope filled.
  const body = opts.file === undefined ? Buffer.from(JSON.stringify(await exampleBody(opts.event!, data))) : await readInput(deps, opts.file, '--file');
  let fields: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) fields = parsed as Record<string, unknown>;
  } catch {
    // Not JSON: the headers come from the options only.
  }
  const event = opts.event ?? (typeof fields?.event === 'string' ? fields.event : undefined);
  if (event === undefined || event === '') throw new UsageError(t('hooks.eventTheBodyHas'));
  // A hand-written body is still sent as it is, but every envelope field it lacks is named first, with a whole example.
  const missing = missingEnvelope(fields);
  if (missing.length > 0) {
    warn(deps.io, t('hooksExample.missingEnvelope', { fields: missing.join(', '), count: missing.length }));
    note(deps.io, t('hooksExample.wholeExample', { example: JSON.stringify(await exampleBody(event, typeof fields?.data === 'object' && fields.data !== null ? (fields.data as Record<string, unknown>) : {})) }));
  }
  const delivery = typeof fields?.delivery === 'string' && fields.delivery !== '' ? fields.delivery : newDeliveryId();
  const timestamp = String(Math.floor(Date.now() / 1000));
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    [WEBHOOK_HEADERS.event]: event,
    [WEBHOOK_HEADERS.delivery]: delivery,
    [WEBHOOK_HEADERS.timestamp]: timestamp,
    [WEBHOOK_HEADERS.attempt]: '1',
    [WEBHOOK_HEADERS.signature]: computeSignature(timestamp, body, secret!),
  };
  let status: number;
  let answer: string;
  try {
    const res = await nodeFetch(opts.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000) });
    status = res.status;
    answer = await res.text();
  } catch (error) {
    const cause = (error as { cause?: { code?: unknown } }).cause;
    const why = typeof cause?.code === 'string' ? cause.code : error instanceof Error ? error.message : String(error);
    throw new CliError(t('hooks.couldNotReach', { url: opts.url, why }), EXIT.error, t('hooks.isYourReceiverRunning'));
  }
  const ok = status >= 200 && status < 300;
  if (wantsJson(deps)) printJson(deps.io, { url: opts.url, event, delivery, status });
  // i18next-instrument-ignore-next-line: values only: event, delivery, HTTP status
  else say(deps.io, `${event} ${delivery} → ${status}`);
  if (!ok) {
    const text = answer.replace(/\s+/g, ' ').trim();
    throw new CliError(t('hooks.theReceiverAnswered', { status }), EXIT.error, text ? t('hooks.itsAnswer', { text: text.length > 200 ? `${text.slice(0, 200)}…` : text }) : undefined);
  }
}
