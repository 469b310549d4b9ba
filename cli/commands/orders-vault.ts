/**
 * `seller orders vault list|put|reveal ID`: credentials exchanged with the buyer through the
 * order's vaults. A secret never comes from a flag (it would stay in the shell history): `put`
 * reads it from a hidden prompt on a terminal, from `--secret-file F` (`-` for stdin), or from
 * stdin when stdin is not a terminal. `reveal` prints the buyer's secret once.
 */
import { t } from '../i18n/index.ts';
import type { Command } from 'commander';
import type { App } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { UsageError } from '../lib/errors.ts';
import { isInteractive, readAll } from '../lib/io.ts';
import { printJson, printTable, say, warn } from '../lib/output.ts';
import { confirmDestructive } from '../lib/prompts.ts';
import { readTextInput } from '../lib/input.ts';
import { chompNewline, stateMovedHint, withHints } from './orders-common.ts';

export interface VaultPutOptions {
  id: string;
  secretFile?: string | undefined;
}

export function registerVault(noun: Command, app: App): void {
  const vault = noun.command('vault').description(t('ordersVault.exchangeCredentialsWithThe'));
  vault
    .command('list')
    .alias('ls')
    .description(t('ordersVault.showTheVaultsOf'))
    .argument('<id>', t('ordersVault.orderId'))
    .action(app.run((id: string) => ({ id }), runVaultList));
  vault
    .command('put')
    .description(t('ordersVault.putCredentialsIntoYour'))
    .argument('<id>', t('ordersVault.orderId'))
    .option('--secret-file <file>', t('ordersVault.readTheSecretFrom'))
    .addHelpText(
      'after',
      t('ordersVault.theSecretIsAsked'),
    )
    .action(app.run((id: string, o: { secretFile?: string }): VaultPutOptions => ({ id, secretFile: o.secretFile }), runVaultPut));
  vault
    .command('reveal')
    .description(t('ordersVault.readTheBuyerS'))
    .argument('<id>', t('ordersVault.orderId'))
    .option('-y, --yes', t('ordersVault.revealWithoutAsking'))
    .addHelpText('after', t('ordersVault.revealAsksFirst'))
    .action(app.run((id: string, o: { yes?: boolean }): VaultRevealOptions => ({ id, yes: o.yes === true }), runVaultReveal));
}

export interface VaultRevealOptions {
  id: string;
  yes: boolean;
}

const side = (value: string): string => (value === 'own' ? t('ordersVault.yoursForTheBuyer') : value === 'other' ? t('ordersVault.theBuyerSFor') : value);

export async function runVaultList(opts: { id: string }, deps: Deps): Promise<void> {
  const { items } = await deps.client().orders.vaults(opts.id);
  if (wantsJson(deps)) {
    printJson(deps.io, items);
    return;
  }
  printTable(
    deps.io,
    items,
    [
      { header: t('ordersVault.side'), value: (v) => side(v.side) },
      { header: t('ordersVault.opened'), value: (v) => (v.opened ? t('words.yes') : t('words.no')) },
    ],
    t('ordersVault.noVaultsYet'),
  );
}

/** The secret to put: `--secret-file`, a hidden prompt on a terminal, or stdin. */
async function readSecret(opts: VaultPutOptions, deps: Deps): Promise<string> {
  const { io } = deps;
  let secret: string;
  if (opts.secretFile !== undefined) secret = chompNewline(await readTextInput(deps, opts.secretFile, '--secret-file'));
  else if (!io.stdinIsTTY) secret = chompNewline(await readAll(io.stdin));
  else if (isInteractive(io)) secret = await deps.prompter.secret('Credentials for the buyer');
  else throw new UsageError(t('ordersVault.secretFileIsRequired'), t('ordersVault.orPipeTheSecret'));
  if (!secret.trim()) throw new UsageError(t('ordersVault.theSecretIsEmpty'));
  return secret;
}

export async function runVaultPut(opts: VaultPutOptions, deps: Deps): Promise<void> {
  const client = deps.client();
  const secret = await readSecret(opts, deps);
  const vault = await withHints(client.orders.putVault(opts.id, { secret }), { state_moved: stateMovedHint(opts.id) });
  if (wantsJson(deps)) {
    printJson(deps.io, vault);
    return;
  }
  const when = vault.opened ? t('ordersVault.itIsHandedTo') : t('ordersVault.theBuyerGetsIt');
  say(deps.io, t('ordersVault.putTheCredentialsInto', { id: opts.id, when }));
}

export async function runVaultReveal(opts: VaultRevealOptions, deps: Deps): Promise<void> {
  // The read is spent by the call: ask first (default no), or require --yes in a script.
  await confirmDestructive(deps, opts.yes, t('ordersVault.revealQuestion', { id: opts.id }));
  const answer = await withHints(deps.client().orders.reveal(opts.id), {
    already_opened: t('ordersVault.theBuyerSVault'),
    not_found: t('ordersVault.checkTheOrderId', { id: opts.id }),
  });
  if (wantsJson(deps)) printJson(deps.io, { secret: answer.secret });
  else say(deps.io, answer.secret);
  warn(deps.io, t('ordersVault.thisIsTheOnly'));
}
