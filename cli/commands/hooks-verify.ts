/**
 * `seller hooks verify`: checks one recorded delivery offline, for CI and for debugging a
 * receiver. Same rules as `verifyWebhook` from `service-seller/webhooks`.
 *
 * - Secret: `--secret-file F` (one secret a line; several are tried, as while rotating),
 *   `--secret-stdin`, or `SERVICE_WEBHOOK_SECRET`.
 * - Payload: `--payload FILE`, the raw body bytes exactly as received (`-` reads stdin).
 * - Headers: `--headers-file F` (`Name: value` lines or a JSON object), then `--header 'Name: value'`
 *   (repeatable), then `--signature` / `--timestamp`; a later source wins for the same header.
 * - `--tolerance S` (default 300) and `--now T` (unix seconds or ISO time) judge the timestamp, so a
 *   delivery recorded long ago can be replayed in CI with `--now` set to its own timestamp.
 * - Exit 0 when valid (the event kind and delivery id, or the event JSON with `--json`); exit 1 with
 *   the reason code and what to do about it on stderr otherwise; exit 2 for usage errors.
 */
import { verificationWords } from './hooks-reasons.ts';
import { both } from '../i18n/format.ts';
import { t } from '../i18n/index.ts';
import type { Command } from 'commander';
import { WEBHOOK_HEADERS, WEBHOOK_TOLERANCE_SECONDS } from '../../sdk/contract/events.ts';
import { verifyWebhook, WebhookVerificationError } from '../../sdk/webhooks/index.ts';
import { collect, type App } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { CliError, EXIT, UsageError } from '../lib/errors.ts';
import { printJson, say } from '../lib/output.ts';
import {
  loadSecrets,
  parseHeaderLine,
  parseHeadersText,
  parseInstant,
  positiveNumber,
  SECRET_ENV,
} from './hooks-common.ts';
import { readInput } from '../lib/input.ts';

export interface HooksVerifyOptions {
  payload?: string | undefined;
  secretFile?: string | undefined;
  secretStdin: boolean;
  headers: string[];
  headersFile?: string | undefined;
  signature?: string | undefined;
  timestamp?: string | undefined;
  toleranceSeconds?: number | undefined;
  /** Milliseconds since the epoch. */
  now?: number | undefined;
}

export function registerVerify(noun: Command, app: App): void {
  noun
    .command('verify')
    .description(t('hooks.checkTheSignatureOf'))
    .option('--payload <file>', t('hooks.theRawRequestBody'))
    .option('--secret-file <file>', t('hooks.theSigningSecretOne2'))
    .option('--secret-stdin', t('hooks.readTheSigningSecret'))
    .option('--header <line>', t('hooks.aRequestHeaderName'), collect)
    .option('--headers-file <file>', t('hooks.requestHeadersNameValue'))
    .option('--signature <value>', t('hooks.theHeaderSha', { header: WEBHOOK_HEADERS.signature }))
    .option('--timestamp <seconds>', t('hooks.theHeader', { header: WEBHOOK_HEADERS.timestamp }))
    .option('--tolerance <seconds>', t('hooks.refuseTimestampsThisFar', { seconds: WEBHOOK_TOLERANCE_SECONDS }), positiveNumber)
    .option('--now <time>', t('hooks.judgeTheTimestampAgainst'), parseInstant)
    .addHelpText('after', t('hooks.verifyHelp', { env: SECRET_ENV }))
    .action(
      app.run(
        (o: {
          payload?: string;
          secretFile?: string;
          secretStdin?: boolean;
          header?: string[];
          headersFile?: string;
          signature?: string;
          timestamp?: string;
          tolerance?: number;
          now?: number;
        }): HooksVerifyOptions => ({
          payload: o.payload,
          secretFile: o.secretFile,
          secretStdin: o.secretStdin === true,
          headers: o.header ?? [],
          headersFile: o.headersFile,
          signature: o.signature,
          timestamp: o.timestamp,
          toleranceSeconds: o.tolerance,
          now: o.now,
        }),
        runHooksVerify,
      ),
    );
}

/** The headers of the delivery from all the flags, later sources winning. */
async function collectHeaders(opts: HooksVerifyOptions, deps: Deps): Promise<Record<string, string>> {
  const headers: Record<string, string> = {};
  if (opts.headersFile !== undefined) {
    const bytes = await readInput(deps, opts.headersFile, '--headers-file');
    Object.assign(headers, parseHeadersText(bytes.toString('utf8'), `--headers-file ${opts.headersFile}`));
  }
  for (const line of opts.headers) {
    const [name, value] = parseHeaderLine(line, '--header');
    headers[name] = value;
  }
  if (opts.signature !== undefined) {
    const value = opts.signature.trim();
    // A bare hex digest is taken as the header value without its prefix.
    headers[WEBHOOK_HEADERS.signature] = /^[0-9a-fA-F]+$/.test(value) ? `sha256=${value}` : value;
  }
  if (opts.timestamp !== undefined) headers[WEBHOOK_HEADERS.timestamp] = opts.timestamp.trim();
  return headers;
}

export async function runHooksVerify(opts: HooksVerifyOptions, deps: Deps): Promise<void> {
  if (opts.payload === undefined) {
    throw new UsageError(t('hooks.payloadFileIsRequired'));
  }
  const stdinUsers = [opts.payload === '-' && '--payload -', opts.secretStdin && '--secret-stdin', opts.headersFile === '-' && '--headers-file -'].filter(
    (x): x is string => typeof x === 'string',
  );
  if (stdinUsers.length > 1) throw new UsageError(t('hooks.onlyOneInputCan', { inputs: both(stdinUsers) }));

  const secrets = await loadSecrets(deps, opts, true);
  const body = await readInput(deps, opts.payload, '--payload');
  const headers = await collectHeaders(opts, deps);
  const options = {
    ...(opts.toleranceSeconds === undefined ? {} : { toleranceSeconds: opts.toleranceSeconds }),
    ...(opts.now === undefined ? {} : { now: opts.now }),
  };

  let event;
  try {
    event = verifyWebhook(body, headers, secrets, options);
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    // The verdict for a script, on stdout as a valid one is; the words and the exit code as without --json.
    if (wantsJson(deps)) printJson(deps.io, verdictJson(error));
    throw verificationFailure(error, body, headers, secrets, options);
  }
  if (wantsJson(deps)) {
    printJson(deps.io, event);
    return;
  }
  const extras = [t('hooks.attempt', { attempt: event.attempt }), ...(event.test ? [t('hooks.testMark')] : [])];
  say(deps.io, t('hooks.valid', { event: event.event, delivery: event.delivery, extras: extras.join(', ') }));
}

/** A failed verification as data: `{ valid: false, reason, message, header?, skewSeconds?, hint? }` (the message is the SDK's English). */
function verdictJson(error: WebhookVerificationError): Record<string, unknown> {
  return {
    valid: false,
    reason: error.reason,
    message: error.message,
    ...(error.header === undefined ? {} : { header: error.header }),
    ...(error.skewSeconds === undefined ? {} : { skewSeconds: error.skewSeconds }),
    ...(error.hint === undefined ? {} : { hint: error.hint }),
  };
}

/** Exit 1 with the reason code, what failed in the seller's language and a hint for the CLI's inputs. */
function verificationFailure(
  error: WebhookVerificationError,
  body: Buffer,
  headers: Record<string, string>,
  secrets: string[],
  options: { toleranceSeconds?: number; now?: number },
): CliError {
  // i18next-instrument-ignore-next-line: the reason code, then its words from the catalogue (hooks-reasons.ts)
  return new CliError(`${error.reason}: ${verificationWords(error, options.toleranceSeconds)}`, EXIT.error, hintFor(error, body, headers, secrets, options));
}

function hintFor(
  error: WebhookVerificationError,
  body: Buffer,
  headers: Record<string, string>,
  secrets: string[],
  options: { toleranceSeconds?: number; now?: number },
): string | undefined {
  if (error.hint === 'secret_whitespace') return t('hooks.hintSecretWhitespace');
  if (error.hint === 'now_in_seconds') return t('hooks.hintNowInSeconds');
  switch (error.reason) {
    case 'missing_header':
      return error.header ? t('hooks.hintGiveWithHeader', { header: error.header }) : t('hooks.hintGiveIt');
    case 'stale_timestamp': {
      const ts = headers[WEBHOOK_HEADERS.timestamp];
      return t('hooks.hintReplayingARecorded', { ts: ts ?? 'UNIX_SECONDS' });
    }
    case 'mismatch': {
      // The classic: an editor or `echo` added a final line break to the saved body.
      const trimmed = body.subarray(0, body.length - (body.at(-1) === 0x0a ? (body.at(-2) === 0x0d ? 2 : 1) : 0));
      if (trimmed.length !== body.length) {
        try {
          verifyWebhook(trimmed, headers, secrets, options);
          return t('hooks.hintThePayloadFile');
        } catch (again) {
          if (again instanceof WebhookVerificationError && again.reason !== 'mismatch') {
            return t('hooks.hintThePayloadFile');
          }
        }
      }
      return t('hooks.hintCheckTheSecret');
    }
    default:
      return undefined;
  }
}
