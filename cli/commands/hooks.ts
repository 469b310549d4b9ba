/**
 * `seller hooks show|set|delete|rotate-secret|resume|test|deliveries|probe|listen|verify|send`: the
 * event subscription (scope `hooks`) and tools for receivers. `probe` lives in hooks-probe.ts (its
 * relay `--forward-to` in hooks-relay.ts), `listen` in hooks-listen.ts, `verify` in hooks-verify.ts,
 * `send` in hooks-send.ts.
 *
 * The signing secret is returned by the service once, when a subscription is created and when it
 * is rotated; it is printed once on stdout with a warning, or written to `--secret-file` (0600).
 */
import { t } from '../i18n/index.ts';
import { dateTime } from '../i18n/format.ts';
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
import { deliverSecret, hookStatus, prepareSecretFile, type SecretFile } from './hooks-common.ts';
import { registerListen } from './hooks-listen.ts';
import { registerProbe } from './hooks-probe.ts';
import { registerSend } from './hooks-send.ts';
import { registerExample } from './hooks-example.ts';
import { registerVerify } from './hooks-verify.ts';
import { withHints } from './orders-common.ts';

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

const secretFileHelp = () => t('hooks.writeTheSigningSecret');

export const register: Register = (noun, app) => {
  noun
    .command('show')
    .description(t('hooks.showTheEventSubscription'))
    .action(app.run(() => ({}), runHooksShow));
  noun
    .command('set')
    .description(t('hooks.subscribeAnAddressTo'))
    .option('--url <url>', t('hooks.theHttpsAddressThat'))
    .option('--event <kind>', t('hooks.anEventKindRepeatable', { kinds: EVENT_KINDS.join(', ') }), collect)
    .option('--secret-file <file>', secretFileHelp())
    .option('--rotate-secret', t('hooks.ifTheSubscriptionExists'))
    .addHelpText('after', t('hooks.setHelp'))
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
    .description(t('hooks.switchEventDeliveryOff'))
    .option('-y, --yes', t('hooks.doNotAskFor'))
    .action(app.run((o: { yes?: boolean }): HooksDeleteOptions => ({ yes: o.yes === true }), runHooksDelete));
  noun
    .command('rotate-secret')
    .description(t('hooks.replaceTheSigningSecret'))
    .option('--secret-file <file>', secretFileHelp())
    .addHelpText('after', t('hooks.theOldSecretStops'))
    .action(app.run((o: { secretFile?: string }): HooksSecretOptions => ({ secretFile: o.secretFile }), runHooksRotateSecret));
  noun
    .command('resume')
    .description(t('hooks.resumeAPausedSubscription'))
    .action(app.run(() => ({}), runHooksResume));
  noun
    .command('test')
    .description(t('hooks.sendATestEvent'))
    .addOption(openOption('--event <kind>', t('hooks.theEventKindTo'), EVENT_KINDS))
    .action(app.run((o: { event?: EventKind }): HooksTestOptions => ({ event: o.event }), runHooksTest));
  noun
    .command('deliveries')
    .description(t('hooks.showTheDeliveryLog'))
    .option('--limit <n>', t('hooks.howManyEntriesDefault'), positiveInt)
    .option('--cursor <cursor>', t('hooks.continueAfterAPrevious'))
    .action(
      app.run((o: { limit?: number; cursor?: string }): HooksDeliveriesOptions => ({ limit: o.limit, cursor: o.cursor }), runHooksDeliveries),
    );
  registerProbe(noun, app);
  registerListen(noun, app);
  registerVerify(noun, app);
  registerSend(noun, app);
  registerExample(noun, app);
};

type HooksView = Hooks;

function printHooks(deps: Deps, hooks: HooksView): void {
  if (hooks.status === 'off') {
    say(deps.io, t('hooks.noEventSubscriptionDelivery'));
    note(deps.io, t('hooks.subscribeWithSellerHooks'));
    return;
  }
  printFields(deps.io, [
    [t('hooks.url'), hooks.url],
    [t('hooks.events'), hooks.events],
    [t('hooks.status'), hookStatus(hooks.status)],
    [t('hooks.failures'), hooks.failures],
    [t('hooks.pausedAt'), dateTime(hooks.pausedAt)],
  ]);
  if (hooks.status === 'paused') note(deps.io, t('hooks.deliveryIsPausedAfter'));
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

export async function runHooksSet(opts: HooksSetOptions, deps: Deps): Promise<void> {
  const url = await flagOrAsk(deps, opts.url, '--url', (p) => p.text(t('hooks.addressThatReceivesThe')));
  const events = await flagOrAsk(deps, opts.events, '--event', (p) =>
    p.checkbox(t('hooks.events'), EVENT_KINDS.map((value) => ({ value }))),
  );
  if (events.length === 0) throw new UsageError(t('hooks.eventGiveAtLeast'), t('hooks.kinds', { kinds: EVENT_KINDS.join(', ') }));
  refuseMisspeltEvents(events, EVENT_KINDS);
  const client = deps.client();
  const json = wantsJson(deps);
  let missing: { kinds: string[]; subscribed: string[] } | undefined;
  await withSecretFile(opts.secretFile, async (file) => {
    const answer = await withHints(client.hooks.set({ url, events }), { 'url:public_host_only': t('hooks.localReceiverHint') });
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
        if (!file) warn(deps.io, t('hooks.onlyTimeShown'));
        return;
      }
      note(deps.io, t('hooks.updatedWithANew', { url: hooks.url, events: hooks.events.join(', ') }));
      await deliverSecret(deps.io, rotated, file, false);
      return;
    }
    if (secret === null) {
      if (json) printJson(deps.io, answer);
      else {
        printHooks(deps, hooks);
        note(deps.io, t('hooks.subscriptionUpdatedTheSigning'));
      }
      if (file && !(await exists(file.path))) {
        throw new CliError(
          t('hooks.wasNotWrittenThe', { path: file.path }),
          EXIT.error,
          t('hooks.toPutANew', { path: file.path }),
        );
      }
      if (file) note(deps.io, t('hooks.wasLeftAsIt', { path: file.path }));
      return;
    }
    if (json) {
      if (file) {
        await deliverSecret(deps.io, secret, file, true);
        printJson(deps.io, { ...hooks, secretFile: file.path });
      } else {
        printJson(deps.io, answer);
        warn(deps.io, t('hooks.onlyTimeShown'));
      }
      return;
    }
    note(deps.io, t('hooks.subscribedTo', { url: hooks.url, events: hooks.events.join(', ') }));
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
        warn(deps.io, t('hooks.onlyTimeShown'));
      }
    } else {
      note(deps.io, t('hooks.rotatedTheSigningSecret'));
      await deliverSecret(deps.io, secret, file, false);
    }
  });
}

export async function runHooksDelete(opts: HooksDeleteOptions, deps: Deps): Promise<void> {
  const client = deps.client();
  await confirmDestructive(deps, opts.yes, t('hooks.switchWebhookDeliveryOff'));
  const answer = await client.hooks.delete();
  if (wantsJson(deps)) printJson(deps.io, answer);
  else say(deps.io, t('hooks.webhookDeliveryIsOff'));
}

export async function runHooksResume(_opts: object, deps: Deps): Promise<void> {
  const hooks = await deps.client().hooks.resume();
  if (wantsJson(deps)) printJson(deps.io, hooks);
  else say(deps.io, t('hooks.subscriptionDeliveriesToGo', { status: hookStatus(hooks.status), url: hooks.url ?? '-' }));
}

export async function runHooksTest(opts: HooksTestOptions, deps: Deps): Promise<void> {
  const answer = await deps.client().hooks.test(opts.event === undefined ? {} : { event: opts.event });
  if (wantsJson(deps)) {
    printJson(deps.io, answer);
    return;
  }
  say(deps.io, t('hooks.sentATestEvent', { event: answer.event, delivery: answer.delivery }));
  note(deps.io, t('hooks.followItWithSeller'));
}

export async function runHooksDeliveries(opts: HooksDeliveriesOptions, deps: Deps): Promise<void> {
  if (opts.limit !== undefined && opts.limit > 200) throw new UsageError(t('hooks.limitAtMost'));
  const query: { limit?: number; cursor?: string } = {};
  if (opts.limit !== undefined) query.limit = opts.limit;
  if (opts.cursor !== undefined) query.cursor = opts.cursor;
  await printList<Delivery>(deps, deps.client().hooks.deliveries(query), {
    all: false,
    what: t('hooks.deliveriesWhat'),
    empty: t('hooks.noDeliveriesYet'),
    more: (cursor) => t('hooks.moreSellerHooksDeliveries', { cursor }),
    columns: [
      { header: t('hooks.event'), value: (d) => d.event },
      { header: t('hooks.delivery'), value: (d) => d.delivery },
      { header: t('hooks.attempts'), value: (d) => d.attempts },
      { header: t('hooks.lastStatus'), value: (d) => d.lastStatus },
      { header: t('hooks.lastError'), value: (d) => d.lastError },
      { header: t('hooks.nextAttempt'), value: (d) => dateTime(d.nextAttemptAt) },
      { header: t('hooks.delivered'), value: (d) => dateTime(d.deliveredAt) },
      { header: t('hooks.test'), value: (d) => (d.test ? t('hooks.testMark') : '') },
    ],
  });
}
