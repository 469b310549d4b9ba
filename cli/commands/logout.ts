/** `seller logout`: forgets the API key saved in a profile (the base URL stays). */
import type { Register } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { note, printJson, say, warn } from '../lib/output.ts';

export type LogoutOptions = Record<string, never>;

export const register: Register = (command, app) => {
  command.action(app.run((): LogoutOptions => ({}), runLogout));
};

export async function runLogout(_opts: LogoutOptions, deps: Deps): Promise<void> {
  const { profile } = deps.settings();
  const removed = deps.store().forgetKey(profile);
  if (wantsJson(deps)) printJson(deps.io, { profile, removed });
  else if (removed) say(deps.io, `Logged out of profile ${profile}; its key was removed.`);
  else note(deps.io, `Profile ${profile} has no saved key; nothing to do.`);
  if (deps.io.env.SERVICE_API_KEY) warn(deps.io, 'SERVICE_API_KEY is still set in the environment and will be used');
}
