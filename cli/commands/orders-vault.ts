/**
 * `seller orders vault list|put|reveal ID`: credentials exchanged with the buyer through the
 * order's vaults. A secret never comes from a flag (it would stay in the shell history): `put`
 * reads it from a hidden prompt on a terminal, from `--secret-file F` (`-` for stdin), or from
 * stdin when stdin is not a terminal. `reveal` prints the buyer's secret once.
 */
import type { Command } from 'commander';
import type { App } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { UsageError } from '../lib/errors.ts';
import { isInteractive, readAll } from '../lib/io.ts';
import { printJson, printTable, say, warn } from '../lib/output.ts';
import { confirmDestructive } from '../lib/prompts.ts';
import { labelOf } from '../lib/records.ts';
import { readTextInput } from '../lib/input.ts';
import { chompNewline, stateMovedHint, withHints } from './orders-common.ts';

export interface VaultPutOptions {
  id: string;
  secretFile?: string | undefined;
}

export interface VaultRevealOptions {
  id: string;
  yes: boolean;
}

export function registerVault(noun: Command, app: App): void {
  const vault = noun.command('vault').description("Exchange credentials with the buyer through the order's vaults");
  vault
    .command('list')
    .alias('ls')
    .description('Show the vaults of an order: whose, and whether opened (never their contents)')
    .argument('<id>', 'order id')
    .action(app.run((id: string) => ({ id }), runVaultList));
  vault
    .command('put')
    .description('Put credentials into your vault for the buyer (they cannot be read back)')
    .argument('<id>', 'order id')
    .option('--secret-file <file>', 'read the secret from a file (- for stdin)')
    .addHelpText(
      'after',
      '\nThe secret is asked for with a hidden prompt on a terminal, or read from stdin when piped:\n  $ seller orders vault put ord_123\n  $ pass show shop/account-42 | seller orders vault put ord_123',
    )
    .action(app.run((id: string, o: { secretFile?: string }): VaultPutOptions => ({ id, secretFile: o.secretFile }), runVaultPut));
  vault
    .command('reveal')
    .description("Read the buyer's vault; this works exactly once")
    .argument('<id>', 'order id')
    .option('-y, --yes', 'read it without asking (needed when not on a terminal)')
    .addHelpText('after', '\nOn a terminal you are asked first (default no); in a script pass --yes.')
    .action(app.run((id: string, o: { yes?: boolean }): VaultRevealOptions => ({ id, yes: o.yes === true }), runVaultReveal));
}

const SIDE = { own: 'yours (for the buyer)', other: "the buyer's (for you)" } as const;

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
      { header: 'SIDE', value: (v) => labelOf(SIDE, v.side) },
      { header: 'OPENED', value: (v) => (v.opened ? 'yes' : 'no') },
    ],
    'No vaults yet.',
  );
}

/** The secret to put: `--secret-file`, a hidden prompt on a terminal, or stdin. */
async function readSecret(opts: VaultPutOptions, deps: Deps): Promise<string> {
  const { io } = deps;
  let secret: string;
  if (opts.secretFile !== undefined) secret = chompNewline(await readTextInput(deps, opts.secretFile, '--secret-file'));
  else if (!io.stdinIsTTY) secret = chompNewline(await readAll(io.stdin));
  else if (isInteractive(io)) secret = await deps.prompter.secret('Credentials for the buyer');
  else throw new UsageError('--secret-file is required when not running interactively', 'or pipe the secret into stdin');
  if (!secret.trim()) throw new UsageError('the secret is empty');
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
  const when = vault.opened ? 'it is handed to the buyer now' : 'the buyer gets it when you deliver';
  say(deps.io, `Put the credentials into your vault of ${opts.id}; ${when}. They cannot be read back.`);
}

export async function runVaultReveal(opts: VaultRevealOptions, deps: Deps): Promise<void> {
  // The read is spent by the call: ask first (default no), or require --yes in a script.
  await confirmDestructive(deps, opts.yes, `Read the buyer's vault of ${opts.id} now? It can be read only once; store what it shows.`);
  const answer = await withHints(deps.client().orders.reveal(opts.id), {
    already_opened: "the buyer's vault can be read only once and was already read; ask the buyer to put the credentials again",
    not_found: `check the order id; or the buyer has put nothing into a vault yet: \`seller orders vault list ${opts.id}\``,
  });
  if (wantsJson(deps)) printJson(deps.io, { secret: answer.secret });
  else say(deps.io, answer.secret);
  warn(deps.io, "this is the only time the buyer's credentials can be read; they cannot be read again. Store them now.");
}
