/** `seller profiles list|use`: the saved profiles. Keys are never shown, only their prefixes. */
import { t } from '../i18n/index.ts';
import type { Register } from '../lib/command.ts';
import { profileName } from '../lib/client.ts';
import { languageOf } from '../i18n/language.ts';
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
    .description(t('profiles.listSavedProfilesMarks'))
    .action(app.run(() => ({}), runProfilesList));
  noun
    .command('use')
    .description(t('profiles.makeASavedProfile'))
    .argument('<name>', t('profiles.profileName'))
    .action(app.run((name: string) => ({ name }), runProfilesUse));
  noun
    .command('lang')
    .description(t('profiles.langDescription'))
    .argument('[lang]', t('profiles.langArgument'))
    .action(app.run((lang?: string) => ({ lang }), runProfilesLang));
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
      { header: t('profiles.profile'), value: (r) => r.name },
      { header: t('profiles.baseUrl'), value: (r) => r.baseUrl },
      { header: t('profiles.key'), value: (r) => r.keyPrefix ?? t('profiles.loggedOut') },
    ],
    t('profiles.noProfilesYetRun'),
  );
}

export async function runProfilesUse(opts: { name: string }, deps: Deps): Promise<void> {
  if (!PROFILE_NAME.test(opts.name)) throw new UsageError(t('profiles.invalidProfileName', { name: opts.name }));
  const store = deps.store();
  if (!store.get(opts.name)) {
    throw new CliError(t('profiles.noProfileNamed', { name: opts.name }), 1, t('profiles.createItWithSeller', { name: opts.name }));
  }
  store.use(opts.name);
  if (wantsJson(deps)) printJson(deps.io, { current: opts.name });
  else say(deps.io, t('profiles.nowUsingProfile', { name: opts.name }));
  if (deps.io.env.SERVICE_PROFILE && deps.io.env.SERVICE_PROFILE !== opts.name) {
    warn(deps.io, t('profiles.serviceProfileIsSet', { SERVICE_PROFILE: deps.io.env.SERVICE_PROFILE }));
  }
}

/** `seller profiles lang [ru|en|auto]`: the language this profile remembers (shows it without an argument). */
export async function runProfilesLang(opts: { lang?: string | undefined }, deps: Deps): Promise<void> {
  const store = deps.store();
  const name = profileName(deps.globals, deps.io.env, store);
  if (opts.lang === undefined) {
    const saved = store.get(name)?.lang ?? null;
    if (wantsJson(deps)) printJson(deps.io, { profile: name, lang: saved });
    else say(deps.io, saved ? t('profiles.langSaved', { name, lang: saved }) : t('profiles.langNone', { name }));
    return;
  }
  const lang = opts.lang === 'auto' ? undefined : languageOf(opts.lang);
  if (opts.lang !== 'auto' && lang === undefined) throw new UsageError(t('language.invalid', { source: 'lang', value: opts.lang }), t('profiles.langHint'));
  store.update(name, { lang });
  if (wantsJson(deps)) printJson(deps.io, { profile: name, lang: lang ?? null });
  else say(deps.io, lang ? t('profiles.langSaved', { name, lang }) : t('profiles.langNone', { name }));
}
