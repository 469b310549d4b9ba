/** `seller keys list|issue|revoke`: the seller's API keys (scope `keys`). */
import { dateTime, word } from '../i18n/format.ts';
import { t } from '../i18n/index.ts';
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
    .description(t('keys.listYourApiKeys'))
    .action(app.run(() => ({}), runKeysList));
  noun
    .command('issue')
    .description(t('keys.issueANewKey'))
    .option('--name <name>', t('keys.aLabelForThe'))
    .option('--scope <scope>', t('keys.aScopeOfThe', { SCOPES: SCOPES.join(', ') }), collect)
    .addHelpText('after', t('keys.exampleSellerKeysIssue'))
    .action(app.run((o: { name?: string; scope?: string[] }): KeysIssueOptions => ({ name: o.name, scopes: o.scope }), runKeysIssue));
  noun
    .command('revoke')
    .description(t('keys.revokeAKeyAt'))
    .argument('<id>', t('keys.keyIdKey'))
    .option('-y, --yes', t('keys.doNotAskFor'))
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
      { header: t('keys.id'), value: (k) => k.id },
      { header: t('keys.name'), value: (k) => k.name },
      { header: t('keys.prefix'), value: (k) => `${k.prefix}…` },
      { header: t('keys.mode'), value: (k) => word('keyMode', k.mode) },
      { header: t('keys.scopes'), value: (k) => k.scopes },
      { header: t('keys.lastUsed'), value: (k) => dateTime(k.lastUsedAt) },
      { header: t('keys.status'), value: (k) => (k.revoked ? t('words.revoked') : t('words.active')) },
    ],
    t('keys.noKeys'),
  );
}

export async function runKeysIssue(opts: KeysIssueOptions, deps: Deps): Promise<void> {
  const name = await flagOrAsk(deps, opts.name, '--name', (p) => p.text(t('keys.keyName')));
  const scopes = await flagOrAsk(deps, opts.scopes, '--scope', (p) =>
    p.checkbox(t('keys.scopes2'), SCOPES.map((value) => ({ value }))),
  );
  const unknown = scopes.filter((scope) => !(SCOPES as readonly string[]).includes(scope));
  if (unknown.length > 0) {
    throw new UsageError(t('keys.unknownScope', { unknown: unknown.join(', ') }), t('keys.scopes3', { SCOPES: SCOPES.join(', ') }));
  }
  const issued = await deps.client().keys.create({ name, scopes: scopes as (typeof SCOPES)[number][] });
  if (wantsJson(deps)) {
    printJson(deps.io, issued);
    return;
  }
  note(deps.io, t('keys.issuedKeyWithScopes', { id: issued.id, name: issued.name, mode: issued.mode, scopes: issued.scopes.join(', ') }));
  say(deps.io, issued.key);
  warn(deps.io, t('keys.thisIsTheOnly'));
}

export async function runKeysRevoke(opts: KeysRevokeOptions, deps: Deps): Promise<void> {
  const client = deps.client();
  await confirmDestructive(deps, opts.yes, t('keys.revokeKeyProgramsUsing', { id: opts.id }));
  const answer = await client.keys.revoke(opts.id);
  if (wantsJson(deps)) printJson(deps.io, answer);
  else say(deps.io, t('keys.revokedKey', { id: answer.id }));
}
