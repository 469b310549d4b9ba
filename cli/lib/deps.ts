/**
 * What a command's `run(opts, deps)` may use. Commands get everything through this object, so a
 * test passes a buffer IO, a temp config directory, a fake client and scripted prompts.
 */
import type { SellerClient } from '../../sdk/client.ts';
import { clientFor, newClient, resolveSettings, strictFrom, type GlobalOptions, type Settings } from './client.ts';
import { ProfileStore } from './config.ts';
import type { IO } from './io.ts';
import { inquirerPrompter, type Prompter } from './prompts.ts';

export interface Deps {
  io: IO;
  globals: GlobalOptions;
  /** The profile file (opened on first use). */
  store(): ProfileStore;
  /** Profile, base URL and key after precedence. */
  settings(): Settings;
  /** The client of the resolved settings, or of explicit credentials. */
  client(credentials?: { apiKey: string; baseUrl: string }): SellerClient;
  prompter: Prompter;
}

/** The real wiring; `overrides` replace parts of it (tests). */
export function createDeps(io: IO, globals: GlobalOptions, overrides: Partial<Deps> = {}): Deps {
  let store: ProfileStore | undefined;
  const deps: Deps = {
    io,
    globals,
    store: () => (store ??= new ProfileStore(io.env)),
    settings: () => resolveSettings(globals, io.env, deps.store()),
    client: (credentials) => (credentials ? newClient({ ...credentials, strict: strictFrom(io.env) }) : clientFor(deps.settings())),
    prompter: inquirerPrompter(io),
    ...overrides,
  };
  return deps;
}

/** `--json` was given. */
export function wantsJson(deps: Pick<Deps, 'globals'>): boolean {
  return deps.globals.json === true;
}
