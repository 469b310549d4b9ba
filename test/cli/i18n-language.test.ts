/**
 * Which language `seller` speaks and what changes with it: --lang, SELLER_LANG, the POSIX locale
 * order, the profile's remembered choice; the help, commander's errors and typo suggestions, and
 * error hints in Russian; --json and exit codes the same in every language.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chooseLanguage, languageOf } from '../../cli/i18n/language.ts';
import { apiError, bufferIO, fakeClient, LIVE_KEY, ME, run, tempConfigDir } from './helpers.ts';

let config: ReturnType<typeof tempConfigDir>;
beforeEach(() => {
  config = tempConfigDir();
});
afterEach(() => config.cleanup());

const env = (extra: Record<string, string>) => ({ SELLER_CONFIG_DIR: config.dir, ...extra });

describe('choosing the language', () => {
  it('reads --lang, then SELLER_LANG, then the saved choice, then LC_ALL, LC_MESSAGES, LANG', () => {
    expect(chooseLanguage(['--lang', 'ru'], { SELLER_LANG: 'en', LANG: 'en_US.UTF-8' }).language).toBe('ru');
    expect(chooseLanguage(['--lang=en', 'keys'], { LC_ALL: 'ru_RU.UTF-8' }).language).toBe('en');
    expect(chooseLanguage([], { SELLER_LANG: 'ru', LC_ALL: 'C' }).language).toBe('ru');
    expect(chooseLanguage([], { LANG: 'ru_RU.UTF-8' }, () => 'en').language).toBe('en');
    expect(chooseLanguage([], { LC_ALL: 'ru_RU.UTF-8', LANG: 'en_GB.UTF-8' }).language).toBe('ru');
    expect(chooseLanguage([], { LC_ALL: '', LC_MESSAGES: 'ru_RU', LANG: 'C' }).language).toBe('ru');
    expect(chooseLanguage([], { LC_ALL: 'C.UTF-8', LANG: 'ru_RU.UTF-8' }).language).toBe('en');
    expect(chooseLanguage([], { LANG: 'de_DE.UTF-8' }).language).toBe('en');
    expect(chooseLanguage([], {}).language).toBe('en');
  });

  it('does not take a --lang after -- (it belongs to the command)', () => {
    expect(chooseLanguage(['api', '--', '--lang', 'ru'], {}).language).toBe('en');
  });

  it('refuses a language it does not speak, named where it came from', () => {
    expect(chooseLanguage(['--lang', 'de'], {}).invalid).toEqual({ source: '--lang', value: 'de' });
    expect(chooseLanguage([], { SELLER_LANG: 'klingon' }).invalid).toEqual({ source: 'SELLER_LANG', value: 'klingon' });
    expect(languageOf('ru-RU')).toBe('ru');
    expect(languageOf('russian')).toBeUndefined();
  });

  it('reads the saved choice only when nothing explicit decides', () => {
    let read = 0;
    chooseLanguage(['--lang', 'en'], {}, () => (read++, 'ru'));
    expect(read).toBe(0);
  });
});

describe('the profile remembers a language', () => {
  it('saves ru for the profile, speaks it without a Russian locale, and forgets it with auto', async () => {
    const saved = await run(['profiles', 'lang', 'ru'], bufferIO({ env: env({ LANG: 'C' }) }));
    expect(saved.code).toBe(0);
    expect(saved.out).toContain('Profile default speaks ru'); // said in the language this run chose
    expect((await run(['--help'], bufferIO({ env: env({ LANG: 'C' }) }))).out).toContain('Использование: seller');
    // --lang and SELLER_LANG still win over the profile.
    expect((await run(['--help'], bufferIO({ env: env({ SELLER_LANG: 'en' }) }))).out).toContain('Usage: seller');
    // Another profile does not have it.
    expect((await run(['--profile', 'other', '--help'], bufferIO({ env: env({ LANG: 'C' }) }))).out).toContain('Usage: seller');
    const shown = await run(['profiles', 'lang', '--json'], bufferIO({ env: env({}) }));
    expect(JSON.parse(shown.out)).toEqual({ profile: 'default', lang: 'ru' });
    await run(['profiles', 'lang', 'auto'], bufferIO({ env: env({}) }));
    expect((await run(['--help'], bufferIO({ env: env({ LANG: 'C' }) }))).out).toContain('Usage: seller');
  });

  it('refuses a language it does not speak (exit 2) and saves nothing', async () => {
    const refused = await run(['profiles', 'lang', 'de'], bufferIO({ env: env({}) }));
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('unknown language "de"');
    expect(JSON.parse((await run(['profiles', 'lang', '--json'], bufferIO({ env: env({}) }))).out).lang).toBeNull();
  });
});

describe('seller in Russian', () => {
  it('shows the help in Russian under LANG=ru_RU.UTF-8, with --lang mentioned', async () => {
    const { code, out } = await run(['--help'], bufferIO({ env: env({ LANG: 'ru_RU.UTF-8' }) }));
    expect(code).toBe(0);
    expect(out).toContain('Использование: seller [параметры] [команда]');
    expect(out).toContain('Ведите свой магазин');
    expect(out).toMatch(/^ {2}orders\s+Заказы: список/m);
    expect(out).toMatch(/--lang <язык>\s+язык сообщений: ru или en/);
    expect(out).toContain('Коды выхода');
  });

  it('says commander\'s own words in Russian and keeps the columns aligned', async () => {
    const { out } = await run(['cards', '--help'], bufferIO({ env: env({ LANG: 'ru_RU.UTF-8' }) }));
    const commands = out.slice(out.indexOf('Команды:'));
    const starts = [...commands.matchAll(/^ {2}(\S.*?\S) {2,}(\S)/gm)].map((m) => m.index! + m[0].length - 1 - commands.lastIndexOf('\n', m.index!) - 1);
    expect(commands).toMatch(/^ {2}list\|ls \[параметры\] +Ваши карточки$/m);
    expect(new Set(starts).size).toBe(1);
    const watch = await run(['orders', 'watch', '--help'], bufferIO({ env: env({ LANG: 'ru_RU.UTF-8' }) }));
    expect(watch.out).toMatch(/\(по умолчанию: "now"\)/);
  });

  it("begins every command's description with a capital letter, in both languages (commander's own help line aside)", async () => {
    const lowercase: string[] = [];
    for (const lang of ['en', 'ru']) {
      const walk = async (path: string[]): Promise<void> => {
        const { out } = await run(['--lang', lang, ...path, '--help'], bufferIO({ env: env({}) }));
        const at = out.search(/^(Commands|Команды):$/m);
        // A leaf's help has no commands (and a word that is no command's gets the parent's help: not walked again).
        if (at < 0 || !out.startsWith(`${lang === 'en' ? 'Usage' : 'Использование'}: seller ${path.map((w) => `${w} `).join('')}`)) return;
        const commands = out.slice(at).split(/\n(?=\S)/)[0]!;
        for (const [, term, first] of commands.matchAll(/^ {2}(\S.*?\S) {2,}(\S)/gm)) {
          const name = term!.split(/[|\s]/)[0]!;
          if (name === 'help') continue;
          if (first !== first!.toUpperCase()) lowercase.push(`${lang}: seller ${[...path, name].join(' ')}`);
          await walk([...path, name]);
        }
      };
      await walk([]);
    }
    expect(lowercase).toEqual([]);
  });

  it("seller autopilot --help tells of the phone: notify, telegram's chats and where its token goes, in both languages", async () => {
    for (const [lang, words] of [['en', /notify: where events go: the seller's phone/], ['ru', /notify: куда идут события: телефон продавца/]] as const) {
      const { out } = await run(['--lang', lang, 'autopilot', '--help'], bufferIO({ env: env({}) }));
      expect(out).toMatch(words);
      expect(out).toContain('SERVICE_TELEGRAM_TOKEN');
      expect(out).toMatch(/webhooks: /);
    }
  });

  it('keeps the English help under LANG=C and with --lang en over a Russian locale', async () => {
    for (const [argv, vars] of [[['--help'], { LANG: 'C' }], [['--lang', 'en', '--help'], { LC_ALL: 'ru_RU.UTF-8' }]] as const) {
      const { out } = await run([...argv], bufferIO({ env: env(vars) }));
      expect(out).toContain('Usage: seller');
      expect(out).toContain('Run your marketplace shop from the terminal');
      expect(out).toMatch(/--lang <lang>\s+language of messages: ru or en/);
    }
  });

  it('says an unknown command and its suggestion in Russian, with the same exit code', async () => {
    const ru = await run(['logni'], bufferIO({ env: env({ LANG: 'ru_RU.UTF-8' }) }));
    const en = await run(['logni'], bufferIO({ env: env({ LANG: 'C' }) }));
    expect(ru.err).toContain('ошибка: неизвестная команда «logni»');
    expect(ru.err).toContain('(Может быть, login?)');
    expect(en.err).toContain("error: unknown command 'logni'");
    expect(en.err).toContain('(Did you mean login?)');
    expect(ru.code).toBe(en.code);
  });

  // Every form of commander's errors that the CLI re-says, each named as the Russian help names it (issue 37, items 8 and 9).
  it.each([
    [['cards', 'show'], 'ошибка: не хватает обязательного аргумента «номер»'],
    [['cards', 'create', '--price'], 'ошибка: у параметра «--price <рубли>» нет значения'],
    [['cards', 'create', '--price', '1,5'], 'ошибка: значение «1,5» не подходит для параметра «--price <рубли>». '],
    [['cards', 'list', '--bogus'], 'ошибка: неизвестный параметр «--bogus»'],
    [['cards', 'show', '1', '2'], 'ошибка: слишком много аргументов для «show». Ожидался 1 аргумент, получено 2.'],
    [['cards', 'list', '--active', '--inactive'], 'ошибка: параметр «--inactive» нельзя использовать вместе с параметром «--active»'],
    [['autopilot'], 'ошибка: не указан обязательный параметр «-c, --config <файл>»'],
    [['completion', 'tcsh'], 'ошибка: значение «tcsh» не подходит для аргумента «оболочка». Допустимые значения: '],
  ])('says commander\'s %j in Russian, naming it as the help does', async (args, said) => {
    const ru = await run(args, bufferIO({ env: env({ LANG: 'ru_RU.UTF-8' }) }));
    expect(ru.code).toBe(2);
    expect(ru.err).toContain(said);
    expect(ru.err).not.toMatch(/[A-Za-z]{3,} [A-Za-z]{3,}|«number»|<rub>|<file>/);
  });

  it('completes the languages of --lang on Tab', async () => {
    const { out } = await run(['__complete', '--lang', ''], bufferIO({ env: env({}) }));
    expect(out.split('\n').filter(Boolean)).toEqual(['en', 'ru']);
  });

  it('refuses --lang de with exit 2 and names the languages', async () => {
    const { code, err } = await run(['--lang', 'de', 'whoami'], bufferIO({ env: env({}) }));
    expect(code).toBe(2);
    expect(err).toContain('error: --lang: unknown language "de"');
    expect(err).toContain('ru (Russian) and en (English)');
  });

  it('explains an error and a refusal kind in Russian, with the same exit code', async () => {
    const failing = (error: Error) => () => fakeClient({ me: { get: async () => Promise.reject(error) } });
    const revoked = apiError(401, { error: 'revoked' });
    const ru = await run(['whoami'], bufferIO({ env: env({ LANG: 'ru_RU.UTF-8', SERVICE_API_KEY: LIVE_KEY }) }), { client: failing(revoked) });
    const en = await run(['whoami'], bufferIO({ env: env({ SERVICE_API_KEY: LIVE_KEY }) }), { client: failing(revoked) });
    expect(ru.err).toContain('ошибка: revoked: API-ключ отозван');
    // the key came from SERVICE_API_KEY: the hint names the variable (`seller login` cannot help)
    expect(ru.err).toContain('ключ из SERVICE_API_KEY отозван');
    expect(ru.code).toBe(4);
    expect(en.code).toBe(4);

    const refused = apiError(409, { error: 'rejected', refusal: { kind: 'contacts', field: 'description' } });
    const explained = await run(['whoami'], bufferIO({ env: env({ LANG: 'ru_RU.UTF-8', SERVICE_API_KEY: LIVE_KEY }) }), { client: failing(refused) });
    expect(explained.err).toContain('отказ: contacts');
    expect(explained.err).toContain('маркетплейс запрещает контакты');
    expect(explained.err).toContain('поле: description');
    expect(explained.code).toBe(1);
  });

  it('prints the same --json in both languages', async () => {
    const client = () => fakeClient({ me: { get: async () => ME } });
    const ru = await run(['whoami', '--json'], bufferIO({ env: env({ LANG: 'ru_RU.UTF-8', SERVICE_API_KEY: LIVE_KEY }) }), { client });
    const en = await run(['whoami', '--json'], bufferIO({ env: env({ LANG: 'C', SERVICE_API_KEY: LIVE_KEY }) }), { client });
    expect(ru.out).toBe(en.out);
    expect(ru.code).toBe(en.code);
  });
});
