/** `seller keys list|issue|revoke`: the seller's API keys (scope `keys`). */
import { SCOPES } from '../../sdk/contract/common.ts';
import { collect, type Register } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { UsageError } from '../lib/errors.ts';
import { allItems } from '../lib/paging.ts';
import { note, printJson, printTable, say, warn } from '../lib/output.ts';
import { confirmDestructive, flagOrAsk } from '../lib/prompts.ts';

export interface KeysIssueOptions {
  name?: string | undefined;
  scopes?: string[] | undefined;
}

export interface KeysRevokeOptions {
  id: string;
  yes: boolean;
}

export const register: Register = (noun, app) => {
  noun
    .command('list')
    .alias('ls')
    .description('List your API keys (never their values)')
    .action(app.run(() => ({}), runKeysList));
  noun
    .command('issue')
    .description('Issue a new key; its value is shown once')
    .option('--name <name>', 'a label for the key')
    .option('--scope <scope>', `a scope of the key, repeatable: ${SCOPES.join(', ')}`, collect)
    .addHelpText('after', '\nExample:\n  $ seller keys issue --name ci --scope orders --scope stock')
    .action(app.run((o: { name?: string; scope?: string[] }): KeysIssueOptions => ({ name: o.name, scopes: o.scope }), runKeysIssue));
  noun
    .command('revoke')
    .description('Revoke a key at once, everywhere')
    .argument('<id>', 'key id (key_…)')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(app.run((id: string, o: { yes?: boolean }): KeysRevokeOptions => ({ id, yes: o.yes === true }), runKeysRevoke));
};

export async function runKeysList(_opts: object, deps: Deps): Promise<void> {
  const keys = await allItems(deps.client().keys.list());
  if (wantsJson(deps)) {
    printJson(deps.io, keys);
    return;
  }
  printTable(
    deps.io,
    keys,
    [
      { header: 'ID', value: (k) => k.id },
      { header: 'NAME', value: (k) => k.name },
      { header: 'PREFIX', value: (k) => `${k.prefix}…` },
      { header: 'MODE', value: (k) => k.mode },
      { header: 'SCOPES', value: (k) => k.scopes },
      { header: 'LAST USED', value: (k) => k.lastUsedAt },
      { header: 'STATUS', value: (k) => (k.revoked ? 'revoked' : 'active') },
    ],
    'No keys.',
  );
}

export async function runKeysIssue(opts: KeysIssueOptions, deps: Deps): Promise<void> {
  const name = await flagOrAsk(deps, opts.name, '--name', (p) => p.text('Key name'));
  const scopes = await flagOrAsk(deps, opts.scopes, '--scope', (p) =>
    p.checkbox('Scopes', SCOPES.map((value) => ({ value }))),
  );
  const unknown = scopes.filter((scope) => !(SCOPES as readonly string[]).includes(scope));
  if (unknown.length > 0) {
    throw new UsageError(`unknown scope ${unknown.join(', ')}`, `scopes: ${SCOPES.join(', ')}`);
  }
  const issued = await deps.client().keys.create({ name, scopes: scopes as (typeof SCOPES)[number][] });
  if (wantsJson(deps)) {
    printJson(deps.io, issued);
    return;
  }
  note(deps.io, `Issued key ${issued.id} "${issued.name}" (${issued.mode}) with scopes ${issued.scopes.join(', ')}:`);
  say(deps.io, issued.key);
  warn(deps.io, 'this is the only time the key is shown; it cannot be shown again. Store it now.');
}

export async function runKeysRevoke(opts: KeysRevokeOptions, deps: Deps): Promise<void> {
  const client = deps.client();
  await confirmDestructive(deps, opts.yes, `Revoke key ${opts.id}? Programs using it stop working at once.`);
  const answer = await client.keys.revoke(opts.id);
  if (wantsJson(deps)) printJson(deps.io, answer);
  else say(deps.io, `Revoked key ${answer.id}.`);
}
