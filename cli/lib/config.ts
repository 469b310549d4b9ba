/**
 * Profiles: named pairs of base URL and API key, kept in one JSON file (`config.json`, mode 0600).
 * The directory is `$SELLER_CONFIG_DIR` when set (tests), else the XDG config directory
 * (`$XDG_CONFIG_HOME/service-seller`, usually `~/.config/service-seller`; on macOS
 * `~/Library/Preferences/service-seller`, on Windows `%APPDATA%\service-seller\Config`).
 *
 * The file is plain JSON, the same place and format the `conf` package used before (so existing
 * profile files keep working). Every change rewrites it atomically: a temporary file with mode
 * 0600 in the same directory, then a rename, so a crash never leaves half a file.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { t } from '../i18n/index.ts';

export interface Profile {
  baseUrl?: string;
  apiKey?: string;
  /** The language the seller chose for this profile (`seller profiles lang ru`). */
  lang?: string;
}

interface ConfigShape {
  current?: string;
  profiles?: Record<string, Profile>;
}

export const DEFAULT_PROFILE = 'default';
export const CONFIG_FILE_MODE = 0o600;
export const CONFIG_FILE_NAME = 'config.json';
const PROJECT = 'service-seller';

/** Profile names become JSON keys and appear in messages: keep them plain. */
export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

type Env = Record<string, string | undefined>;

/** The directory of the profile file for an environment. */
export function configDir(env: Env, platform: NodeJS.Platform = process.platform): string {
  if (env.SELLER_CONFIG_DIR) return env.SELLER_CONFIG_DIR;
  const home = homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Preferences', PROJECT);
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), PROJECT, 'Config');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), PROJECT);
}

export class ProfileStore {
  readonly #path: string;
  #data: ConfigShape;

  /** Opening reads the file if it exists; nothing is written until a change (no defaults). */
  constructor(env: Env) {
    this.#path = join(configDir(env), CONFIG_FILE_NAME);
    this.#data = this.#read();
  }

  /** Path of the config file. */
  get path(): string {
    return this.#path;
  }

  /** The profile chosen with `seller profiles use`, if any. */
  get current(): string | undefined {
    const current = this.#data.current;
    return typeof current === 'string' ? current : undefined;
  }

  names(): string[] {
    return Object.keys(this.#all()).sort();
  }

  get(name: string): Profile | undefined {
    const all = this.#all();
    return Object.hasOwn(all, name) ? all[name] : undefined;
  }

  /** Merges `patch` into the profile, creating it if needed. */
  update(name: string, patch: Profile): void {
    this.#data = this.#read();
    const all = this.#all();
    all[name] = { ...this.get(name), ...patch };
    this.#set('profiles', all);
  }

  /** Removes the key of a profile (keeps its base URL); answers whether there was one. */
  forgetKey(name: string): boolean {
    this.#data = this.#read();
    const all = this.#all();
    const profile = this.get(name);
    if (!profile?.apiKey) return false;
    const { apiKey: _dropped, ...rest } = profile;
    all[name] = rest;
    this.#set('profiles', all);
    return true;
  }

  use(name: string): void {
    this.#set('current', name);
  }

  #all(): Record<string, Profile> {
    const profiles = this.#data.profiles;
    return profiles && typeof profiles === 'object' ? { ...profiles } : {};
  }

  /** Changes one key; the other keys are re-read first, so a change made meanwhile by another run is kept. */
  #set<K extends keyof ConfigShape>(key: K, value: ConfigShape[K]): void {
    const data = { ...this.#read(), [key]: value };
    this.#write(data);
    this.#data = data;
  }

  #read(): ConfigShape {
    let text: string;
    try {
      text = readFileSync(this.#path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      // JSON.parse says where only in English: the path, and what to do.
      throw new Error(t('client.profileFileNotJson', { path: this.#path }));
    }
    if (data === null || typeof data !== 'object' || Array.isArray(data)) {
      throw new Error(t('client.profileFileNotObject', { path: this.#path }));
    }
    return data as ConfigShape;
  }

  /** Writes the whole file atomically (temporary file with mode 0600, fsync, rename). */
  #write(data: ConfigShape): void {
    mkdirSync(dirname(this.#path), { recursive: true, mode: 0o700 });
    const temp = `${this.#path}.${process.pid}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}.tmp`;
    try {
      const fd = openSync(temp, 'wx', CONFIG_FILE_MODE);
      try {
        writeSync(fd, JSON.stringify(data, undefined, '\t'));
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temp, this.#path);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
  }
}

/**
 * The language saved in the profile a run would use (`--profile`, `SERVICE_PROFILE`, the current
 * one, "default"), read before the program is built; a missing or unreadable file is no choice
 * (the command itself reports a broken file).
 */
export function savedLanguage(argv: readonly string[], env: Env): string | undefined {
  let store: ProfileStore;
  try {
    store = new ProfileStore(env);
  } catch {
    return undefined;
  }
  const flag = argv.indexOf('--profile');
  const inline = argv.find((arg) => arg.startsWith('--profile='))?.slice('--profile='.length);
  const name = (flag >= 0 ? argv[flag + 1] : inline) || env.SERVICE_PROFILE || store.current || DEFAULT_PROFILE;
  const lang = store.get(name)?.lang;
  return typeof lang === 'string' ? lang : undefined;
}
