/**
 * The `seller` program: global options, one stub per noun, and the mapping of every failure to
 * a message and an exit code. Only the invoked noun's module is imported.
 */
import { Command, CommanderError } from 'commander';
import pkg from '../package.json' with { type: 'json' };
import type { Deps } from './lib/deps.ts';
import type { IO } from './lib/io.ts';
import { NOUNS, type Noun } from './nouns.ts';

/** The hidden word the completion scripts call `seller` with (cli/completion.ts). */
export const COMPLETE_WORD = '__complete';

export interface RunOptions {
  io: IO;
  /** Replaces parts of every command's deps (tests: a fake client, scripted prompts). */
  overrides?: Partial<Deps>;
}

const HELP_AFTER = `
Environment:
  SERVICE_API_KEY         API key (wins over the saved profile's key)
  SERVICE_BASE_URL        service address (default http://127.0.0.1:8787)
  SERVICE_PROFILE         profile to use (default: the current one, else "default")
  SELLER_CONFIG_DIR       where profiles are saved (default: $XDG_CONFIG_HOME/service-seller)
  SERVICE_ADMIN_TOKEN     admin token for \`seller sandbox\` (a local seller-server)
  SERVICE_WEBHOOK_SECRET  signing secret for \`seller hooks listen\`, \`probe\` and \`verify\`
  SELLER_STRICT           1: check every answer against the contract (default: show what the
                          service sends, values and fields this version does not know included)
  NO_COLOR                plain output

Exit codes: 0 ok, 1 error, 2 usage or cancelled, 4 authentication or permission (no key, a wrong
or revoked key, a missing scope, a blocked seller).`;

/** Builds the program with stubs only; `loadNoun` fills in the invoked one. */
export function buildProgram(io: IO): Command {
  const program = new Command('seller')
    .description('Run your marketplace shop from the terminal: catalogue, cards, stock, orders, keys.')
    .version(pkg.version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .option('--profile <name>', 'profile to use (env SERVICE_PROFILE)')
    .option('--base-url <url>', 'service address (env SERVICE_BASE_URL)')
    .option('--json', 'print JSON for scripts instead of tables')
    .configureHelp({ showGlobalOptions: true })
    .addHelpText('after', HELP_AFTER)
    .showHelpAfterError('(add --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    });
  for (const noun of NOUNS) program.command(noun.name).description(noun.summary);
  return program;
}

const VALUE_OPTIONS = new Set(['--profile', '--base-url']);

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
    await printCompletions(argv.slice(1), io, program, (name) => loadNoun(NOUNS.find((n) => n.name === name)!)).catch(() => undefined);
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
