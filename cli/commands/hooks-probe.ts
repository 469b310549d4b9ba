/**
 * `seller hooks probe`: the test receiver the service hosts for the seller. Prints its address and
 * how to subscribe it, then tails what it receives: polls `GET /hooks/probe` every `--interval`
 * seconds and prints each new hit (time, event header, attempt, body), oldest first.
 *
 * - `--once` prints the hits it has now and exits.
 * - `--json`: one JSON object per hit (NDJSON) and nothing else on stdout.
 * - With a secret (`--secret-file` or `SERVICE_WEBHOOK_SECRET`) each hit's signature is checked,
 *   judged at the time it was received.
 * - Ctrl-C (SIGINT) or SIGTERM stops it with exit 0; failed polls are retried with a warning, an
 *   authentication or permission failure ends it (exit 4).
 * - `--forward-to URL` relays each new hit to a local handler instead of printing it
 *   (hooks-relay.ts): a status line per hit (NDJSON with `--json`), at most once per hit.
 */
import { invalidVerdict } from './hooks-reasons.ts';
import { t } from '../i18n/index.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Command } from 'commander';
import type { z } from 'zod';
import type { ProbeHit } from '../lib/records.ts';
import { verifyWebhook, WebhookVerificationError } from '../../sdk/webhooks/index.ts';
import type { App } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { describeError, UsageError } from '../lib/errors.ts';
import { note, say, warn } from '../lib/output.ts';
import { deliveryFacts, hookStatus, loadSecrets, pollProbe, positiveNumber, SECRET_ENV, shortTime } from './hooks-common.ts';
import { parseForwardTo, relayProbe } from './hooks-relay.ts';

export interface HooksProbeOptions {
  once: boolean;
  intervalSeconds: number;
  secretFile?: string | undefined;
  /** Relay each new hit to this address instead of printing it. */
  forwardTo?: string | undefined;
}

type Hit = ProbeHit;

/** What is printed for a hit (and its NDJSON line). */
export interface ProbeRecord {
  receivedAt: string;
  event: string | null;
  delivery: string | null;
  attempt: number | null;
  /** Present when a secret was given. */
  valid?: boolean | undefined;
  reason?: string | undefined;
  headers: Record<string, string>;
  body: string;
}

export function registerProbe(noun: Command, app: App): void {
  noun
    .command('probe')
    .description(t('hooks.getTheTestReceiver'))
    .option('--once', t('hooks.printWhatItHas'))
    .option('--interval <seconds>', t('hooks.secondsBetweenPolls'), positiveNumber, 2)
    .option('--secret-file <file>', t('hooks.checkEachHitS', { env: SECRET_ENV }))
    .option('--forward-to <url>', t('hooks.relayEachNewHit'))
    .addHelpText('after', t('hooks.probeHelp'))
    .action(
      app.run(
        (o: { once?: boolean; interval: number; secretFile?: string; forwardTo?: string }): HooksProbeOptions => ({
          once: o.once === true,
          intervalSeconds: o.interval,
          secretFile: o.secretFile,
          forwardTo: o.forwardTo === undefined ? undefined : parseForwardTo(o.forwardTo),
        }),
        runHooksProbe,
      ),
    );
}

export async function runHooksProbe(opts: HooksProbeOptions, deps: Deps): Promise<void> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    if (opts.forwardTo !== undefined) {
      if (opts.secretFile !== undefined) {
        throw new UsageError(t('hooks.secretFileChecksHits'));
      }
      await relayProbe({ forwardTo: opts.forwardTo, intervalSeconds: opts.intervalSeconds, once: opts.once }, deps, controller.signal);
    } else {
      await tailProbe(opts, deps, controller.signal);
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

/** Creates (or gets) the probe, prints it, then prints hits until `signal` aborts (or once). */
export async function tailProbe(opts: HooksProbeOptions, deps: Deps, signal: AbortSignal): Promise<void> {
  const { io } = deps;
  const client = deps.client();
  const json = wantsJson(deps);
  const secrets = opts.secretFile !== undefined || (io.env[SECRET_ENV] ?? '') !== '' ? await loadSecrets(deps, opts, false) : undefined;

  const { url } = await client.hooks.createProbe();
  const hooks = await client.hooks.get();
  if (json) note(io, t('hooks.probeReceiver', { url }));
  else say(io, t('hooks.probeReceiver', { url }));
  if (hooks.url === url && hooks.status !== 'off') {
    note(io, t('hooks.yourSubscriptionDeliversHere', { events: hooks.events.join(', '), status: hookStatus(hooks.status) }));
  } else {
    note(io, t('hooks.subscribeItSellerHooks2', { url }));
    if (hooks.status !== 'off') note(io, t('hooks.thatReplacesYourCurrent', { url: hooks.url ?? '-' }));
  }
  if (!opts.once) note(io, t('hooks.waitingForDeliveriesCtrl'));

  let seen = new Set<string>();
  let printed = 0;
  for (;;) {
    const hits = await pollProbe(client, deps.io, opts, signal);
    if (signal.aborted) return;
    if (hits) {
      const current = new Set<string>();
      for (const hit of [...hits].reverse()) {
        const key = JSON.stringify(hit);
        current.add(key);
        if (seen.has(key)) continue;
        printHit(deps, probeRecord(hit, secrets), json);
        printed += 1;
      }
      // The service keeps the newest hits only: what it no longer has cannot come back.
      seen = current;
    }
    if (opts.once) {
      if (printed === 0) note(io, t('hooks.noHitsYet'));
      return;
    }
    try {
      await sleep(opts.intervalSeconds * 1000, undefined, { signal });
    } catch {
      return; // aborted: Ctrl-C is the normal end of a tail
    }
  }
}

/** A hit with its x-service-* facts and, given secrets, its verdict (judged at the time it came). */
export function probeRecord(hit: Hit, secrets: string[] | undefined): ProbeRecord {
  const facts = deliveryFacts(hit.headers);
  const record: ProbeRecord = {
    receivedAt: hit.receivedAt,
    event: facts.event ?? null,
    delivery: facts.delivery ?? null,
    attempt: facts.attempt !== undefined && /^\d+$/.test(facts.attempt) ? Number(facts.attempt) : null,
    headers: hit.headers,
    body: hit.body,
  };
  if (secrets) {
    try {
      verifyWebhook(hit.body, hit.headers, secrets, { now: Date.parse(hit.receivedAt) });
      record.valid = true;
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      record.valid = false;
      record.reason = error.reason;
    }
  }
  return record;
}

function printHit(deps: Deps, record: ProbeRecord, json: boolean): void {
  const { io } = deps;
  if (json) {
    io.stdout.write(`${JSON.stringify(record)}\n`);
    return;
  }
  const verdict = record.valid === undefined ? undefined : record.valid ? t('hooks.validMark') : invalidVerdict(record.reason);
  const cells = [
    shortTime(record.receivedAt, io.stdoutIsTTY),
    record.event ?? '-',
    record.delivery ?? '-',
    record.attempt === null ? '-' : t('hooks.attempt', { attempt: record.attempt }),
    ...(verdict === undefined ? [] : [verdict]),
  ];
  const body = record.body.replace(/[\r\n]+/g, ' ');
  if (io.stdoutIsTTY) {
    io.stdout.write(`${cells.join('  ')}\n  ${body}\n`);
  } else {
    io.stdout.write(`${[...cells, body].join('\t')}\n`);
  }
}
