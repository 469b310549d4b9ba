/** `seller whoami`: the seller, mode, key and admission behind the current settings (`GET /me`). */
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
    ['Seller', me.sellerId],
    ['Nickname', me.nickname],
    ['Seller type', me.sellerType],
    ['Mode', me.mode],
    ['Key', `${me.key.prefix}… (${me.key.id})`],
    ['Scopes', me.key.scopes],
    ['Admission', me.admissionComplete ? 'complete' : 'incomplete'],
    ['Profile', settings.apiKeySource === 'env' ? `${settings.profile} (key from SERVICE_API_KEY)` : settings.profile],
    ['Base URL', settings.baseUrl],
  ]);
}
