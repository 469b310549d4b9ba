/**
 * How a command module plugs into the program. `cli/main.ts` creates a light stub per noun;
 * when that noun is invoked it imports the module and calls its `register(stub, app)`, which adds
 * the verbs (or, for a top-level verb such as `login`, the options and action of the stub itself).
 *
 * @example
 * export const register: Register = (noun, app) => {
 *   noun
 *     .command('list')
 *     .description('List things')
 *     .action(app.run((o: { all?: boolean }) => ({ all: o.all === true }), runList));
 * };
 */
import { t } from '../i18n/index.ts';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { createDeps, type Deps } from './deps.ts';
import type { GlobalOptions } from './client.ts';
import type { IO } from './io.ts';

export interface App {
  io: IO;
  /** The deps of an invoked command (its global options merged in). */
  deps(command: Command): Deps;
  /**
   * A commander action that turns (positional args, options) into the command's options object
   * with `parse`, then calls `run(opts, deps)`. Errors propagate to the program, which maps them.
   */
  run<O>(parse: (...args: any[]) => O, run: (opts: O, deps: Deps) => Promise<void>): (...args: any[]) => Promise<void>;
}

export type Register = (command: Command, app: App) => void;

export function createApp(io: IO, overrides: Partial<Deps> = {}): App {
  const app: App = {
    io,
    deps: (command) => createDeps(io, command.optsWithGlobals<GlobalOptions>(), overrides),
    run: (parse, run) => async (...args: any[]) => {
      // commander calls an action with (...positionals, options, command).
      const command = args[args.length - 1] as Command;
      const opts = parse(...args.slice(0, -1));
      await run(opts, app.deps(command));
    },
  };
  return app;
}

/** Collects a repeatable option into an array: `.option('--scope <s>', '…', collect)` (absent: undefined). */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** Parses a positive integer, as a commander argParser: `.option('--limit <n>', '…', positiveInt)`. */
export function positiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError(t('command.mustBeAPositive'));
  return Number(value);
}

/** An option whose known values are offered on Tab (cli/completion.ts reads `completions`). */
export type OpenOption = Option & { completions: readonly string[] };

/**
 * An option whose values come from the service (a position's product types, an order status): the
 * known values are listed in the help and completed on Tab, but any other value is passed on, since
 * the real marketplace, not our enums, decides (the server refuses what it does not offer).
 */
export function openOption(flags: string, description: string, known: readonly string[]): OpenOption {
  const option = describedWhenShown(new Option(flags), () => t('command.openOption', { description, known: known.join(', ') })) as OpenOption;
  option.completions = known;
  return option;
}

/**
 * Words `option`'s description when it is read, once: commander reads it only to print the help, so
 * a command that runs never fills in its text (an i18next call with options costs ~40 µs in a
 * fresh process, and the first one ~1 ms more to start i18next; docs/benchmarks.md, "Session 5").
 */
export function describedWhenShown<T extends Option>(option: T, describe: () => string): T {
  let text: string | undefined;
  Object.defineProperty(option, 'description', {
    get: () => (text ??= describe()),
    set: (value: string) => {
      text = value;
    },
    enumerable: true,
    configurable: true,
  });
  return option;
}
