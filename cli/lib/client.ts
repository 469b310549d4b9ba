/**
 * Where a command's API key and base URL come from, and the `SellerClient` built from them.
 * Precedence for each setting: flag > environment > profile > default.
 *   profile name: --profile > SERVICE_PROFILE > `seller profiles use` > "default"
 *   base URL:     --base-url > SERVICE_BASE_URL > the profile's > http://127.0.0.1:8787
 *   API key:      SERVICE_API_KEY > the profile's (there is no --api-key flag: secrets stay out of argv)
 *
 * Answers are read tolerantly (sdk/answers.ts): what the real marketplace sends that our contract does
 * not know (an order status, a field, an error code) is shown as it came. `SELLER_STRICT=1` checks
 * every answer against the contract instead (contract tests, bug reports).
 */
import { t } from '../i18n/index.ts';
import { DEFAULT_BASE_URL, SellerClient } from '../../sdk/client.ts';
import { AuthenticationError } from '../../sdk/errors.ts';
import { DEFAULT_PROFILE, PROFILE_NAME, type ProfileStore } from './config.ts';
import { UsageError } from './errors.ts';
import { nodeFetch } from './http.ts';
import { pacedFetch } from '../../sdk/pacing.ts';
import { dateRecordingFetch, trackServiceClock } from './service-clock.ts';

/** The options every command accepts (defined on the program). */
export interface GlobalOptions {
  profile?: string | undefined;
  baseUrl?: string | undefined;
  json?: boolean | undefined;
}

export type Source = 'flag' | 'env' | 'profile' | 'default';

export interface Settings {
  profile: string;
  baseUrl: string;
  baseUrlSource: Source;
  apiKey: string | undefined;
  apiKeySource: 'env' | 'profile' | undefined;
  /** `SELLER_STRICT` is set (not `0`/`false`): answers are checked against the contract. */
  strict: boolean;
}

type Env = Record<string, string | undefined>;

const set = (value: string | undefined): value is string => value !== undefined && value !== '';

/** The profile a command works on. */
export function profileName(globals: GlobalOptions, env: Env, store: Pick<ProfileStore, 'current'>): string {
  const name = [globals.profile, env.SERVICE_PROFILE, store.current].find(set) ?? DEFAULT_PROFILE;
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(t('client.invalidProfileNameUse', { name }));
  }
  return name;
}

export function resolveSettings(globals: GlobalOptions, env: Env, store: Pick<ProfileStore, 'current' | 'get'>): Settings {
  const profile = profileName(globals, env, store);
  const saved = store.get(profile) ?? {};
  const urls: Array<[string | undefined, Source]> = [
    [globals.baseUrl, 'flag'],
    [env.SERVICE_BASE_URL, 'env'],
    [saved.baseUrl, 'profile'],
  ];
  const [baseUrl, baseUrlSource] = (urls.find(([value]) => set(value)) as [string, Source] | undefined) ?? [DEFAULT_BASE_URL, 'default'];
  checkBaseUrl(baseUrl, baseUrlSource);
  const envKey = set(env.SERVICE_API_KEY) ? env.SERVICE_API_KEY : undefined;
  const apiKey = envKey ?? saved.apiKey;
  const apiKeySource = envKey ? 'env' : saved.apiKey ? 'profile' : undefined;
  return { profile, baseUrl: baseUrl.replace(/\/+$/, ''), baseUrlSource, apiKey, apiKeySource, strict: strictFrom(env) };
}

/** Whether `SELLER_STRICT` asks for strict answer checks (set, and not `0`, `false` or `no`). */
export function strictFrom(env: Env): boolean {
  const value = env.SELLER_STRICT?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false' && value !== 'no';
}

const sourceName = (source: Source): string =>
  source === 'flag' ? '--base-url' : source === 'env' ? 'SERVICE_BASE_URL' : source === 'profile' ? t('client.theProfile') : t('client.theDefault');

function checkBaseUrl(value: string, source: Source): void {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new UsageError(t('client.invalidBaseUrlFrom', { value, source: sourceName(source) }));
  }
}

/**
 * A client for explicit credentials (login checks a key before saving it). It sends through
 * `node:http` (cli/lib/http.ts): a one-shot command does not pay for loading undici.
 */
export function newClient(credentials: { apiKey: string; baseUrl: string; strict?: boolean | undefined }): SellerClient {
  const { apiKey, baseUrl, strict } = credentials;
  const clock: { dateMs?: number } = {};
  // Within the key's rate budget (waits instead of 429s), and the service's clock from every answer.
  const fetch = dateRecordingFetch(pacedFetch(nodeFetch as typeof globalThis.fetch), clock);
  return trackServiceClock(new SellerClient({ apiKey, baseUrl, strict, userAgent: 'seller-cli', fetch }), clock);
}

/** A client for the resolved settings; no key is `no_key` (exit 4) before any request. */
export function clientFor(settings: Settings): SellerClient {
  if (!settings.apiKey) {
    // The detail is data, as a service's is: said again in the run's language (cli/i18n/error-words.ts).
    const text = t('client.noApiKeyFor', { profile: settings.profile });
    throw new AuthenticationError({ code: 'no_key', text, detail: { message: text, credential: 'api_key', profile: settings.profile } });
  }
  return newClient({ apiKey: settings.apiKey, baseUrl: settings.baseUrl, strict: settings.strict });
}
