/** `seller logout`: forgets the API key saved in a profile (the base URL stays). */
import type { Register } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { note, printJson, say, warn } from '../lib/output.ts';
import { t } from '../i18n/index.ts';

export type LogoutOptions = Record<string, never>;

export const register: Register = (command, app) => {
  command.action(app.run((): LogoutOptions => ({}), runLogout));
};

export async function runLogout(_opts: LogoutOptions, deps: Deps): Promise<void> {
  const { profile } = deps.settings();
  const removed = deps.store().forgetKey(profile);
  if (wantsJson(deps)) printJson(deps.io, { profile, removed });
  else if (removed) say(deps.io, t('logout.done', { profile }));
  else note(deps.io, t('logout.nothing', { profile }));
  if (deps.io.env.SERVICE_API_KEY) warn(deps.io, t('logout.envStillSet'));
}
