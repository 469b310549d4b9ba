/** `seller keys list|issue|revoke`: the seller's API keys (scope `keys`). */
import { SCOPES } from '../../sdk/contract/common.ts';
import { collect, type Register } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { UsageError } from '../lib/errors.ts';
import { allItems } from '../lib/paging.ts';
import { note, printJson, printTable, say, warn } from '../lib/output.ts';
import { confirmDestructive, flagOrAsk } from '../lib/prompts.ts';
import { t } from '../i18n/index.ts';
import { dateTime, word } from '../i18n/format.ts';

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
    .description(t('keys.list'))
    .action(app.run(() => ({}), runKeysList));
  noun
    .command('issue')
    .description(t('keys.issue'))
    .option('--name <name>', t('keys.options.name'))
    .option('--scope <scope>', t('keys.options.scope', { scopes: SCOPES.join(', ') }), collect)
    .addHelpText('after', t('keys.issueHelp'))
    .action(app.run((o: { name?: string; scope?: string[] }): KeysIssueOptions => ({ name: o.name, scopes: o.scope }), runKeysIssue));
  noun
    .command('revoke')
    .description(t('keys.revoke'))
    .argument('<id>', t('keys.options.id'))
    .option('-y, --yes', t('keys.options.yes'))
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
      { header: t('keys.columns.id'), value: (k) => k.id },
      { header: t('keys.columns.name'), value: (k) => k.name },
      { header: t('keys.columns.prefix'), value: (k) => `${k.prefix}…` },
      { header: t('keys.columns.mode'), value: (k) => word('keyMode', k.mode) },
      { header: t('keys.columns.scopes'), value: (k) => k.scopes },
      { header: t('keys.columns.lastUsed'), value: (k) => dateTime(k.lastUsedAt) },
      { header: t('keys.columns.status'), value: (k) => t(k.revoked ? 'keys.revoked' : 'keys.active') },
    ],
    t('keys.none'),
  );
}

export async function runKeysIssue(opts: KeysIssueOptions, deps: Deps): Promise<void> {
  const name = await flagOrAsk(deps, opts.name, '--name', (p) => p.text(t('keys.askName')));
  const scopes = await flagOrAsk(deps, opts.scopes, '--scope', (p) =>
    p.checkbox(t('keys.askScopes'), SCOPES.map((value) => ({ value }))),
  );
  const unknown = scopes.filter((scope) => !(SCOPES as readonly string[]).includes(scope));
  if (unknown.length > 0) {
    throw new UsageError(t('keys.unknownScope', { unknown: unknown.join(', ') }), t('keys.scopes', { scopes: SCOPES.join(', ') }));
  }
  const issued = await deps.client().keys.create({ name, scopes: scopes as (typeof SCOPES)[number][] });
  if (wantsJson(deps)) {
    printJson(deps.io, issued);
    return;
  }
  note(deps.io, t('keys.issued', { id: issued.id, name: issued.name, mode: word('keyMode', issued.mode), scopes: issued.scopes.join(', ') }));
  say(deps.io, issued.key);
  warn(deps.io, t('keys.onlyTimeShown'));
}

export async function runKeysRevoke(opts: KeysRevokeOptions, deps: Deps): Promise<void> {
  const client = deps.client();
  await confirmDestructive(deps, opts.yes, t('keys.confirmRevoke', { id: opts.id }));
  const answer = await client.keys.revoke(opts.id);
  if (wantsJson(deps)) printJson(deps.io, answer);
  else say(deps.io, t('keys.revokedKey', { id: answer.id }));
}
