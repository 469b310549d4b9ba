/**
 * The `seller` program: global options, one stub per noun, and the mapping of every failure to
 * a message and an exit code. Only the invoked noun's module is imported.
 */
import { Command, CommanderError, Option } from 'commander';
import pkg from './package.json' with { type: 'json' };
import type { Deps } from './lib/deps.ts';
import type { IO } from './lib/io.ts';
import { COMPLETE_WORD } from './complete-word.ts';
import { localize } from './i18n/commander.ts';
import { t, useLanguage } from './i18n/index.ts';
import { useTimeZone } from './i18n/format.ts';
import { chooseLanguage, LANGUAGES } from './i18n/language.ts';
import { savedLanguage } from './lib/config.ts';
import { NOUNS, type Noun } from './nouns.ts';
import { DEFAULT_BASE_URL } from '../sdk/defaults.ts';

export interface RunOptions {
  io: IO;
  /** Replaces parts of every command's deps (tests: a fake client, scripted prompts). */
  overrides?: Partial<Deps>;
}

/** Builds the program with stubs only; `loadNoun` fills in the invoked one. */
export function buildProgram(io: IO): Command {
  const program = new Command('seller')
    .description(t('program.description'))
    .version(pkg.version, '-V, --version', t('program.version'))
    .helpOption('-h, --help', t('program.help'))
    .helpCommand('help [command]', t('program.helpCommand'))
    .option('--profile <name>', t('program.profile'))
    .option('--base-url <url>', t('program.baseUrl'))
    .option('--json', t('program.json'))
    .addOption(Object.assign(new Option('--lang <lang>', t('program.lang')), { completions: LANGUAGES }))
    .option('--utc', t('program.utc'))
    .addHelpText('after', () => t('program.after', { defaultUrl: DEFAULT_BASE_URL }))
    .showHelpAfterError(t('program.helpAfterError'))
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    });
  localize(program);
  for (const noun of NOUNS) program.command(noun.name).description(noun.summary);
  return program;
}

const VALUE_OPTIONS = new Set(['--profile', '--base-url', '--lang']);

/** The noun an argument list invokes (`seller --json keys list` → keys; `seller help keys` → keys). */
export function invokedNoun(argv: readonly string[]): Noun | undefined {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (VALUE_OPTIONS.has(arg)) i++;
    else if (!arg.startsWith('-')) words.push(arg);
  }
  const name = words[0] === 'help' ? words[1] : words[0];
  return NOUNS.find((noun) => noun.name === name);
}

/** Runs `seller` with `argv` (without node and script) and answers the exit code. */
export async function runCli(argv: readonly string[], options: RunOptions): Promise<number> {
  const { io } = options;
  // On Tab the words are the command line being typed, not this run's options.
  const own = argv[0] === COMPLETE_WORD ? [] : argv;
  const choice = chooseLanguage(own, io.env, () => savedLanguage(own, io.env));
  await useLanguage(choice.language);
  useTimeZone({ utc: own.includes('--utc'), tz: io.env.TZ });
  if (choice.invalid) {
    const { reportError, UsageError } = await import('./lib/errors.ts');
    return reportError(io, new UsageError(t('language.invalid', choice.invalid), t('language.hint')));
  }
  const program = buildProgram(io);
  const loadNoun = async (noun: Noun): Promise<Command> => {
    const [register, { createApp }] = await Promise.all([noun.load(), import('./lib/command.ts')]);
    const stub = program.commands.find((command) => command.name() === noun.name)!;
    register(stub, createApp(io, options.overrides));
    return stub;
  };
  if (argv[0] === COMPLETE_WORD) {
    // What the completion scripts call on Tab: candidates on stdout, never an error.
    const { printCompletions } = await import('./completion.ts');
    const loadByName = async (name: string) => {
      const noun = NOUNS.find((n) => n.name === name);
      return noun ? loadNoun(noun) : undefined;
    };
    await printCompletions(argv.slice(1), io, program, loadByName).catch(() => undefined);
    return 0;
  }
  try {
    const noun = invokedNoun(argv);
    if (noun) await loadNoun(noun);
    await program.parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    const { reportError } = await import('./lib/errors.ts');
    return reportError(io, error, { json: program.opts<{ json?: boolean }>().json === true || argv.includes('--json') });
  }
}
