/**
 * `seller hooks show|set|delete|rotate-secret|resume|test|deliveries|probe|listen|verify|send`: the
 * event subscription (scope `hooks`) and tools for receivers. `probe` lives in hooks-probe.ts (its
 * relay `--forward-to` in hooks-relay.ts), `listen` in hooks-listen.ts, `verify` in hooks-verify.ts,
 * `send` in hooks-send.ts.
 *
 * The signing secret is returned by the service once, when a subscription is created and when it
 * is rotated; it is printed once on stdout with a warning, or written to `--secret-file` (0600).
 */
import { Option } from 'commander';
import { EVENT_KINDS, type EventKind } from '../../sdk/contract/enums.ts';
import type { Delivery, Hooks } from '../lib/records.ts';
import type { z } from 'zod';
import { collect, openOption, positiveInt, type Register } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { CliError, EXIT, UsageError } from '../lib/errors.ts';
import { printList } from '../lib/list.ts';
import { note, printFields, printJson, say, warn } from '../lib/output.ts';
import { missingEventsError, refuseMisspeltEvents } from '../lib/guards.ts';
import { confirmDestructive, flagOrAsk } from '../lib/prompts.ts';
import { deliverSecret, prepareSecretFile, type SecretFile } from './hooks-common.ts';
import { withHints } from './orders-common.ts';
import { registerListen } from './hooks-listen.ts';
import { registerProbe } from './hooks-probe.ts';
import { registerSend } from './hooks-send.ts';
import { registerVerify } from './hooks-verify.ts';

export interface HooksSetOptions {
  url?: string | undefined;
  events?: string[] | undefined;
  secretFile?: string | undefined;
  /** With an existing subscription, also replace its secret (it is shown or written once). */
  rotateSecret?: boolean | undefined;
}

export interface HooksSecretOptions {
  secretFile?: string | undefined;
}

export interface HooksDeleteOptions {
  yes: boolean;
}

export interface HooksTestOptions {
  event?: EventKind | undefined;
}

export interface HooksDeliveriesOptions {
  limit?: number | undefined;
  cursor?: string | undefined;
}

const SECRET_FILE_HELP = 'write the signing secret to this file (mode 0600) instead of printing it';

export const register: Register = (noun, app) => {
  noun
    .command('show')
    .description('Show the event subscription: address, events, status')
    .action(app.run(() => ({}), runHooksShow));
  noun
    .command('set')
    .description('Subscribe an address to events (or change them); a new subscription shows its signing secret once')
    .option('--url <url>', 'the https address that receives the events')
    .option('--event <kind>', `an event kind, repeatable: ${EVENT_KINDS.join(', ')}`, collect)
    .option('--secret-file <file>', SECRET_FILE_HELP)
    .option('--rotate-secret', 'if the subscription exists, also replace its signing secret (the old one stops working)')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ seller hooks set --url https://shop.example.com/hooks --event order.paid --event order.message',
        '  $ seller hooks set --url https://shop.example.com/hooks --event order.paid --secret-file ./webhook.secret',
        '',
        'Changing an existing subscription keeps its secret, clears a pause and resets the failure count;',
        'with --rotate-secret it gets a new secret too, shown or written to --secret-file once.',
      ].join('\n'),
    )
    .action(
      app.run(
        (o: { url?: string; event?: string[]; secretFile?: string; rotateSecret?: boolean }): HooksSetOptions => ({
          url: o.url,
          events: o.event,
          secretFile: o.secretFile,
          rotateSecret: o.rotateSecret,
        }),
        runHooksSet,
      ),
    );
  noun
    .command('delete')
    .description('Switch event delivery off (pending deliveries stop)')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(app.run((o: { yes?: boolean }): HooksDeleteOptions => ({ yes: o.yes === true }), runHooksDelete));
  noun
    .command('rotate-secret')
    .description('Replace the signing secret; the new one is shown once')
    .option('--secret-file <file>', SECRET_FILE_HELP)
    .addHelpText('after', '\nThe old secret stops working at once: give receivers both while they switch (verifyWebhook accepts an array).')
    .action(app.run((o: { secretFile?: string }): HooksSecretOptions => ({ secretFile: o.secretFile }), runHooksRotateSecret));
  noun
    .command('resume')
    .description('Resume a paused subscription (pending deliveries are retried now)')
    .action(app.run(() => ({}), runHooksResume));
  noun
    .command('test')
    .description('Send a test event, signed and logged like real ones (body has test: true)')
    .addOption(openOption('--event <kind>', 'the event kind to send (default order.paid)', EVENT_KINDS))
    .action(app.run((o: { event?: EventKind }): HooksTestOptions => ({ event: o.event }), runHooksTest));
  noun
    .command('deliveries')
    .description('Show the delivery log, newest first')
    .option('--limit <n>', 'how many entries (1-200, default 50)', positiveInt)
    .option('--cursor <cursor>', 'continue after a previous page')
    .action(
      app.run((o: { limit?: number; cursor?: string }): HooksDeliveriesOptions => ({ limit: o.limit, cursor: o.cursor }), runHooksDeliveries),
    );
  registerProbe(noun, app);
  registerListen(noun, app);
  registerVerify(noun, app);
  registerSend(noun, app);
};

type HooksView = Hooks;

function printHooks(deps: Deps, hooks: HooksView): void {
  if (hooks.status === 'off') {
    say(deps.io, 'No event subscription: delivery is off.');
    note(deps.io, 'Subscribe with `seller hooks set --url URL --event order.paid`.');
    return;
  }
  printFields(deps.io, [
    ['URL', hooks.url],
    ['Events', hooks.events],
    ['Status', hooks.status],
    ['Failures', hooks.failures],
    ['Paused at', hooks.pausedAt],
  ]);
  if (hooks.status === 'paused') note(deps.io, 'Delivery is paused after repeated failures; fix the receiver, then `seller hooks resume`.');
}

export async function runHooksShow(_opts: object, deps: Deps): Promise<void> {
  const hooks = await deps.client().hooks.get();
  if (wantsJson(deps)) printJson(deps.io, hooks);
  else printHooks(deps, hooks);
}

/** Runs `call`, with the secret file (if any) made ready before it and used or removed after. */
/** Whether a file exists (a secret file from an earlier run). */
async function exists(path: string): Promise<boolean> {
  const { stat } = await import('node:fs/promises');
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function withSecretFile<T>(path: string | undefined, call: (file: SecretFile | undefined) => Promise<T>): Promise<T> {
  const file = path === undefined ? undefined : await prepareSecretFile(path);
  try {
    return await call(file);
  } finally {
    await file?.discard();
  }
}

/** Where a seller goes when the service refuses a receiver on this computer or the local network. */
export const LOCAL_RECEIVER_HINT =
  'the service calls only public addresses. To receive on this computer: `seller hooks probe --forward-to ' +
  'http://127.0.0.1:PORT/PATH` relays what the service\'s probe receiver gets to your handler, `seller hooks listen` ' +
  'verifies deliveries locally; a local seller-server started with --allow-local-hooks accepts loopback addresses';

/** Whether an address names this computer or a private network (a host the public service cannot reach). */
function isLocalAddress(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost') || host === '::1' || !host.includes('.') && !host.includes(':')) return true;
  if (/\.(local|internal|lan|home\.arpa)$/.test(host)) return true;
  return /^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|0\.0\.0\.0$)/.test(host);
}

export async function runHooksSet(opts: HooksSetOptions, deps: Deps): Promise<void> {
  const url = await flagOrAsk(deps, opts.url, '--url', (p) => p.text('Address that receives the events (https://…)'));
  const events = await flagOrAsk(deps, opts.events, '--event', (p) =>
    p.checkbox('Events', EVENT_KINDS.map((value) => ({ value }))),
  );
  if (events.length === 0) throw new UsageError('--event: give at least one event kind', `kinds: ${EVENT_KINDS.join(', ')}`);
  refuseMisspeltEvents(events, EVENT_KINDS);
  const client = deps.client();
  const json = wantsJson(deps);
  let missing: { kinds: string[]; subscribed: string[] } | undefined;
  await withSecretFile(opts.secretFile, async (file) => {
    const answer = await withHints(client.hooks.set({ url, events }), isLocalAddress(url) ? { url: LOCAL_RECEIVER_HINT } : {});
    const { secret, ...hooks } = answer;
    // Reported after the secret is handed over (a new one is shown only once), with exit 1.
    const dropped = [...new Set(events)].filter((kind) => !(hooks.events as string[]).includes(kind));
    if (dropped.length > 0) missing = { kinds: dropped, subscribed: hooks.events as string[] };
    if (secret === null && opts.rotateSecret === true) {
      // An existing subscription, and a new secret asked for: rotate it and hand it over like a new one.
      const rotated = (await client.hooks.rotateSecret()).secret;
      if (json) {
        if (file) await deliverSecret(deps.io, rotated, file, true);
        printJson(deps.io, file ? { ...hooks, secretFile: file.path } : { ...hooks, secret: rotated });
        if (!file) warn(deps.io, 'this is the only time the signing secret is shown; store it now.');
        return;
      }
      note(deps.io, `Updated ${hooks.url} (${hooks.events.join(', ')}) with a new signing secret; the old one no longer verifies.`);
      await deliverSecret(deps.io, rotated, file, false);
      return;
    }
    if (secret === null) {
      if (json) printJson(deps.io, answer);
      else {
        printHooks(deps, hooks);
        note(deps.io, 'Subscription updated; the signing secret is unchanged (`seller hooks rotate-secret` replaces it).');
      }
      if (file && !(await exists(file.path))) {
        throw new CliError(
          `${file.path} was not written: the subscription already existed and keeps its secret (the service returns it only on creation)`,
          EXIT.error,
          `to put a new secret in ${file.path}, run the same command with --rotate-secret (the old secret stops working)`,
        );
      }
      if (file) note(deps.io, `${file.path} was left as it is (the secret is unchanged).`);
      return;
    }
    if (json) {
      if (file) {
        await deliverSecret(deps.io, secret, file, true);
        printJson(deps.io, { ...hooks, secretFile: file.path });
      } else {
        printJson(deps.io, answer);
        warn(deps.io, 'this is the only time the signing secret is shown; store it now.');
      }
      return;
    }
    note(deps.io, `Subscribed ${hooks.url} to ${hooks.events.join(', ')}.`);
    await deliverSecret(deps.io, secret, file, false);
  });
  if (missing) throw missingEventsError(missing.kinds, missing.subscribed);
}

export async function runHooksRotateSecret(opts: HooksSecretOptions, deps: Deps): Promise<void> {
  const client = deps.client();
  const json = wantsJson(deps);
  await withSecretFile(opts.secretFile, async (file) => {
    const { secret } = await client.hooks.rotateSecret();
    if (json) {
      if (file) {
        await deliverSecret(deps.io, secret, file, true);
        printJson(deps.io, { secretFile: file.path });
      } else {
        printJson(deps.io, { secret });
        warn(deps.io, 'this is the only time the signing secret is shown; store it now.');
      }
    } else {
      note(deps.io, 'Rotated the signing secret; deliveries from now on are signed with the new one.');
      await deliverSecret(deps.io, secret, file, false);
    }
  });
}

export async function runHooksDelete(opts: HooksDeleteOptions, deps: Deps): Promise<void> {
  const client = deps.client();
  await confirmDestructive(deps, opts.yes, 'Switch webhook delivery off? Pending deliveries stop and the signing secret is dropped.');
  const answer = await client.hooks.delete();
  if (wantsJson(deps)) printJson(deps.io, answer);
  else say(deps.io, 'Webhook delivery is off.');
}

export async function runHooksResume(_opts: object, deps: Deps): Promise<void> {
  const hooks = await deps.client().hooks.resume();
  if (wantsJson(deps)) printJson(deps.io, hooks);
  else say(deps.io, `Subscription ${hooks.status}: deliveries to ${hooks.url ?? '-'} go on.`);
}

export async function runHooksTest(opts: HooksTestOptions, deps: Deps): Promise<void> {
  const answer = await deps.client().hooks.test(opts.event === undefined ? {} : { event: opts.event });
  if (wantsJson(deps)) {
    printJson(deps.io, answer);
    return;
  }
  say(deps.io, `Sent a test ${answer.event} event: delivery ${answer.delivery}.`);
  note(deps.io, 'Follow it with `seller hooks deliveries`.');
}

export async function runHooksDeliveries(opts: HooksDeliveriesOptions, deps: Deps): Promise<void> {
  if (opts.limit !== undefined && opts.limit > 200) throw new UsageError('--limit: at most 200');
  const query: { limit?: number; cursor?: string } = {};
  if (opts.limit !== undefined) query.limit = opts.limit;
  if (opts.cursor !== undefined) query.cursor = opts.cursor;
  await printList<Delivery>(deps, deps.client().hooks.deliveries(query), {
    all: false,
    what: 'deliveries',
    empty: 'No deliveries yet.',
    more: (cursor) => `More: \`seller hooks deliveries --cursor ${cursor}\``,
    columns: [
      { header: 'EVENT', value: (d) => d.event },
      { header: 'DELIVERY', value: (d) => d.delivery },
      { header: 'ATTEMPTS', value: (d) => d.attempts },
      { header: 'LAST STATUS', value: (d) => d.lastStatus },
      { header: 'LAST ERROR', value: (d) => d.lastError },
      { header: 'NEXT ATTEMPT', value: (d) => d.nextAttemptAt },
      { header: 'DELIVERED', value: (d) => d.deliveredAt },
      { header: 'TEST', value: (d) => (d.test ? 'test' : '') },
    ],
  });
}
