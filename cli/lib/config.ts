/**
 * Profiles: named pairs of base URL and API key, kept in one JSON file by `conf` with mode 0600.
 * The directory is `$SELLER_CONFIG_DIR` when set (tests), else the XDG config directory
 * (`$XDG_CONFIG_HOME/service-seller`, usually `~/.config/service-seller`).
 */
import Conf from 'conf';

export interface Profile {
  baseUrl?: string;
  apiKey?: string;
}

interface ConfigShape {
  current?: string;
  profiles?: Record<string, Profile>;
}

export const DEFAULT_PROFILE = 'default';
export const CONFIG_FILE_MODE = 0o600;

/** Profile names become JSON keys and appear in messages: keep them plain. */
export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export class ProfileStore {
  readonly #conf: Conf<ConfigShape>;

  /** Opening reads the file if it exists; nothing is written until a change (no defaults). */
  constructor(env: Record<string, string | undefined>) {
    const dir = env.SELLER_CONFIG_DIR;
    this.#conf = new Conf<ConfigShape>({
      projectName: 'service-seller',
      projectSuffix: '',
      ...(dir ? { cwd: dir } : {}),
      configFileMode: CONFIG_FILE_MODE,
      accessPropertiesByDotNotation: false,
      clearInvalidConfig: false,
    });
  }

  /** Path of the config file. */
  get path(): string {
    return this.#conf.path;
  }

  /** The profile chosen with `seller profiles use`, if any. */
  get current(): string | undefined {
    return this.#conf.get('current');
  }

  names(): string[] {
    return Object.keys(this.#all()).sort();
  }

  get(name: string): Profile | undefined {
    return this.#all()[name];
  }

  /** Merges `patch` into the profile, creating it if needed. */
  update(name: string, patch: Profile): void {
    const all = this.#all();
    all[name] = { ...all[name], ...patch };
    this.#conf.set('profiles', all);
  }

  /** Removes the key of a profile (keeps its base URL); answers whether there was one. */
  forgetKey(name: string): boolean {
    const all = this.#all();
    const profile = all[name];
    if (!profile?.apiKey) return false;
    const { apiKey: _dropped, ...rest } = profile;
    all[name] = rest;
    this.#conf.set('profiles', all);
    return true;
  }

  use(name: string): void {
    this.#conf.set('current', name);
  }

  #all(): Record<string, Profile> {
    return { ...this.#conf.get('profiles', {}) };
  }
}
