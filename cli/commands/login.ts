/**
 * `seller login [--key KEY | --with-key-stdin]`: checks a key with `GET /me` and saves it, with
 * the base URL, in a profile. The key comes from a hidden prompt on a terminal, from stdin
 * (`--with-key-stdin`, or whenever stdin is not a terminal), or from `--key` (with a warning:
 * it may stay in the shell history). The key itself is never printed.
 */
import { word } from '../i18n/format.ts';
import { t } from '../i18n/index.ts';
import { API_KEY_PATTERN } from '../../sdk/contract/keys.ts';
import type { Register } from '../lib/command.ts';
import type { Deps } from '../lib/deps.ts';
import { wantsJson } from '../lib/deps.ts';
import { UsageError } from '../lib/errors.ts';
import { readAll } from '../lib/io.ts';
import { printJson, say, warn } from '../lib/output.ts';
import { requireInteractive } from '../lib/prompts.ts';

export interface LoginOptions {
  key?: string | undefined;
  withKeyStdin: boolean;
}

export const register: Register = (command, app) => {
  command
    .option('--key <key>', t('login.theApiKeyAvoid'))
    .option('--with-key-stdin', t('login.readTheApiKey'))
    .addHelpText('after', t('login.examplesSellerLoginPrintf'))
    .action(app.run((o: { key?: string; withKeyStdin?: boolean }): LoginOptions => ({ key: o.key, withKeyStdin: o.withKeyStdin === true }), runLogin));
};

export async function runLogin(opts: LoginOptions, deps: Deps): Promise<void> {
  const apiKey = await readKey(opts, deps);
  if (!API_KEY_PATTERN.test(apiKey)) {
    throw new UsageError(t('login.thatDoesNotLook'), t('login.aKeyStartsWith'));
  }
  const { profile, baseUrl } = deps.settings();
  const me = await deps.client({ apiKey, baseUrl }).me.get();
  const store = deps.store();
  store.update(profile, { baseUrl, apiKey });
  if (store.current === undefined) store.use(profile);
  if (wantsJson(deps)) {
    printJson(deps.io, { profile, baseUrl, sellerId: me.sellerId, mode: me.mode, key: me.key });
    return;
  }
  say(deps.io, t('login.loggedInAsWith', { sellerId: me.sellerId, mode: word('keyMode', me.mode), prefix: me.key.prefix, profile }));
  if (deps.io.env.SERVICE_API_KEY) warn(deps.io, t('login.serviceApiKeyIs'));
}

async function readKey(opts: LoginOptions, deps: Deps): Promise<string> {
  const { io } = deps;
  if (opts.key !== undefined && opts.withKeyStdin) throw new UsageError(t('login.useEitherKeyOr'));
  if (opts.key !== undefined) {
    warn(io, t('login.aKeyGivenWith'));
    return opts.key.trim();
  }
  if (opts.withKeyStdin || !io.stdinIsTTY) {
    const key = (await readAll(io.stdin)).trim();
    if (!key) throw new UsageError(t('login.noKeyOnStdin'), t('login.pipeTheKeyIn'));
    return key;
  }
  requireInteractive(io, '--with-key-stdin');
  return (await deps.prompter.secret('API key')).trim();
}
