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
    .description('Check the signature of a recorded delivery (exit 0 valid, 1 invalid)')
    .option('--payload <file>', 'the raw request body exactly as received; - reads stdin')
    .option('--secret-file <file>', 'the signing secret (one a line: each is tried)')
    .option('--secret-stdin', 'read the signing secret from stdin')
    .option('--header <line>', 'a request header "Name: value", repeatable', collect)
    .option('--headers-file <file>', 'request headers: "Name: value" lines or a JSON object; - reads stdin')
    .option('--signature <value>', `the ${WEBHOOK_HEADERS.signature} header (sha256=…)`)
    .option('--timestamp <seconds>', `the ${WEBHOOK_HEADERS.timestamp} header`)
    .option('--tolerance <seconds>', `refuse timestamps this far from now (default ${WEBHOOK_TOLERANCE_SECONDS})`, positiveNumber)
    .option('--now <time>', 'judge the timestamp against this time (unix seconds or ISO), to replay old deliveries', parseInstant)
    .addHelpText(
      'after',
      [
        '',
        `The secret comes from --secret-file, --secret-stdin or ${SECRET_ENV}.`,
        '',
        'Examples:',
        '  $ seller hooks verify --payload body.json --headers-file headers.txt --secret-file webhook.secret',
        `  $ ${SECRET_ENV}=… seller hooks verify --payload - --signature "$SIG" --timestamp "$TS" < body.json`,
        '  $ seller hooks verify --payload fixtures/paid.json --headers-file fixtures/paid.headers --now 1767225600',
        '',
        'Reasons for exit 1: missing_header, malformed_signature, malformed_timestamp, mismatch,',
        'stale_timestamp, malformed_body.',
      ].join('\n'),
    )
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
    throw new UsageError('--payload FILE is required: the raw request body exactly as received (- reads stdin)');
  }
  const stdinUsers = [opts.payload === '-' && '--payload -', opts.secretStdin && '--secret-stdin', opts.headersFile === '-' && '--headers-file -'].filter(
    (x): x is string => typeof x === 'string',
  );
  if (stdinUsers.length > 1) throw new UsageError(`only one input can come from stdin, but ${stdinUsers.join(' and ')} both read it`);

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
    if (error instanceof WebhookVerificationError) throw verificationFailure(error, body, headers, secrets, options);
    throw error;
  }
  if (wantsJson(deps)) {
    printJson(deps.io, event);
    return;
  }
  const extras = [`attempt ${event.attempt}`, ...(event.test ? ['test'] : [])];
  say(deps.io, `valid: ${event.event} ${event.delivery} (${extras.join(', ')})`);
}

/** Exit 1 with the reason code, the verifier's explanation and a hint for the CLI's inputs. */
function verificationFailure(
  error: WebhookVerificationError,
  body: Buffer,
  headers: Record<string, string>,
  secrets: string[],
  options: { toleranceSeconds?: number; now?: number },
): CliError {
  return new CliError(`${error.reason}: ${error.message}`, EXIT.error, hintFor(error, body, headers, secrets, options));
}

function hintFor(
  error: WebhookVerificationError,
  body: Buffer,
  headers: Record<string, string>,
  secrets: string[],
  options: { toleranceSeconds?: number; now?: number },
): string | undefined {
  switch (error.reason) {
    case 'missing_header':
      return `hint: give ${error.header ?? 'it'} with --header, --signature/--timestamp or --headers-file`;
    case 'stale_timestamp': {
      const ts = headers[WEBHOOK_HEADERS.timestamp];
      return `hint: replaying a recorded delivery? judge it at its own time: --now ${ts ?? 'UNIX_SECONDS'}`;
    }
    case 'mismatch': {
      // The classic: an editor or `echo` added a final line break to the saved body.
      const trimmed = body.subarray(0, body.length - (body.at(-1) === 0x0a ? (body.at(-2) === 0x0d ? 2 : 1) : 0));
      if (trimmed.length !== body.length) {
        try {
          verifyWebhook(trimmed, headers, secrets, options);
          return 'hint: the payload file ends with a line break the delivery did not have; save the body byte for byte';
        } catch (again) {
          if (again instanceof WebhookVerificationError && again.reason !== 'mismatch') {
            return 'hint: the payload file ends with a line break the delivery did not have; save the body byte for byte';
          }
        }
      }
      return 'hint: check the secret (the one from `seller hooks set` or the latest `rotate-secret`) and that --payload holds the exact bytes received';
    }
    default:
      return undefined;
  }
}
