/** `seller whoami`: the seller, mode, key and admission behind the current settings (`GET /me`). */
import { word } from '../i18n/format.ts';
import { t } from '../i18n/index.ts';
import type { Register } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { printFields, printJson } from '../lib/output.ts';

export type WhoamiOptions = Record<string, never>;

export const register: Register = (command, app) => {
  command.action(app.run((): WhoamiOptions => ({}), runWhoami));
};

export async function runWhoami(_opts: WhoamiOptions, deps: Deps): Promise<void> {
  const settings = deps.settings();
  const me = await deps.client().me.get();
  if (wantsJson(deps)) {
    printJson(deps.io, me);
    return;
  }
  printFields(deps.io, [
    [t('whoami.seller'), me.sellerId],
    [t('whoami.nickname'), me.nickname],
    [t('whoami.sellerType'), me.sellerType === null ? null : word('sellerType', me.sellerType)],
    [t('whoami.mode'), word('keyMode', me.mode)],
    [t('whoami.key'), `${me.key.prefix}… (${me.key.id})`],
    [t('whoami.scopes'), me.key.scopes],
    [t('whoami.admission'), me.admissionComplete ? t('words.complete') : t('words.incomplete')],
    [t('whoami.profile'), settings.apiKeySource === 'env' ? t('whoami.keyFromServiceApi', { profile: settings.profile }) : settings.profile],
    [t('whoami.baseUrl'), settings.baseUrl],
  ]);
}
