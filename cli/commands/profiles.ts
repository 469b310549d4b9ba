/** `seller profiles [list]|use`: the saved profiles. Keys are never shown, only their prefixes. */
import type { Register } from '../lib/command.ts';
import { profileName } from '../lib/client.ts';
import { PROFILE_NAME } from '../lib/config.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { CliError, UsageError } from '../lib/errors.ts';
import { keyPrefix, printJson, printTable, say, warn } from '../lib/output.ts';

export interface ProfileRow {
  name: string;
  current: boolean;
  baseUrl: string | null;
  keyPrefix: string | null;
}

export const register: Register = (noun, app) => {
  // Bare `seller profiles` lists them, as `seller profiles list` does.
  noun.action(app.run(() => ({}), runProfilesList));
  noun
    .command('list')
    .alias('ls')
    .description('List saved profiles; * marks the one in use')
    .action(app.run(() => ({}), runProfilesList));
  noun
    .command('use')
    .description('Make a saved profile the current one')
    .argument('<name>', 'profile name')
    .action(app.run((name: string) => ({ name }), runProfilesUse));
};

export async function runProfilesList(_opts: object, deps: Deps): Promise<void> {
  const store = deps.store();
  const inUse = profileName(deps.globals, deps.io.env, store);
  const rows: ProfileRow[] = store.names().map((name) => {
    const profile = store.get(name) ?? {};
    return {
      name,
      current: name === inUse,
      baseUrl: profile.baseUrl ?? null,
      keyPrefix: profile.apiKey ? keyPrefix(profile.apiKey) : null,
    };
  });
  if (wantsJson(deps)) {
    printJson(deps.io, rows);
    return;
  }
  printTable(
    deps.io,
    rows,
    [
      { header: '', value: (r) => (r.current ? '*' : ' ') },
      { header: 'PROFILE', value: (r) => r.name },
      { header: 'BASE URL', value: (r) => r.baseUrl },
      { header: 'KEY', value: (r) => r.keyPrefix ?? '(logged out)' },
    ],
    'No profiles yet: run `seller login`.',
  );
}

export async function runProfilesUse(opts: { name: string }, deps: Deps): Promise<void> {
  if (!PROFILE_NAME.test(opts.name)) throw new UsageError(`invalid profile name "${opts.name}"`);
  const store = deps.store();
  if (!store.get(opts.name)) {
    throw new CliError(`no profile named "${opts.name}"`, 1, `create it with \`seller --profile ${opts.name} login\``);
  }
  store.use(opts.name);
  if (wantsJson(deps)) printJson(deps.io, { current: opts.name });
  else say(deps.io, `Now using profile ${opts.name}.`);
  if (deps.io.env.SERVICE_PROFILE && deps.io.env.SERVICE_PROFILE !== opts.name) {
    warn(deps.io, `SERVICE_PROFILE=${deps.io.env.SERVICE_PROFILE} is set and wins over this choice`);
  }
}
