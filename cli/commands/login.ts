/**
 * `seller login [--key KEY | --with-key-stdin]`: checks a key with `GET /me` and saves it, with
 * the base URL, in a profile. The key comes from a hidden prompt on a terminal, from stdin
 * (`--with-key-stdin`, or whenever stdin is not a terminal), or from `--key` (with a warning:
 * it may stay in the shell history). The key itself is never printed.
 */
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
    .option('--key <key>', 'the API key (avoid: it may stay in your shell history)')
    .option('--with-key-stdin', 'read the API key from stdin')
    .addHelpText('after', '\nExamples:\n  $ seller login\n  $ printf %s "$KEY" | seller login --with-key-stdin\n  $ seller --profile staging --base-url https://seller.example.com login')
    .action(app.run((o: { key?: string; withKeyStdin?: boolean }): LoginOptions => ({ key: o.key, withKeyStdin: o.withKeyStdin === true }), runLogin));
};

export async function runLogin(opts: LoginOptions, deps: Deps): Promise<void> {
  const apiKey = await readKey(opts, deps);
  if (!API_KEY_PATTERN.test(apiKey)) {
    throw new UsageError('that does not look like an API key', 'a key starts with service_live_ or service_test_ followed by 40 letters and digits');
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
  say(deps.io, `Logged in as ${me.sellerId} (${me.mode}) with key ${me.key.prefix}…; profile ${profile}`);
  if (deps.io.env.SERVICE_API_KEY) warn(deps.io, 'SERVICE_API_KEY is set and wins over the saved key');
}

async function readKey(opts: LoginOptions, deps: Deps): Promise<string> {
  const { io } = deps;
  if (opts.key !== undefined && opts.withKeyStdin) throw new UsageError('use either --key or --with-key-stdin, not both');
  if (opts.key !== undefined) {
    warn(io, 'a key given with --key may stay in your shell history; prefer --with-key-stdin or the prompt');
    return opts.key.trim();
  }
  if (opts.withKeyStdin || !io.stdinIsTTY) {
    const key = (await readAll(io.stdin)).trim();
    if (!key) throw new UsageError('no key on stdin', 'pipe the key in: printf %s "$KEY" | seller login --with-key-stdin');
    return key;
  }
  requireInteractive(io, '--with-key-stdin');
  return (await deps.prompter.secret('API key')).trim();
}
