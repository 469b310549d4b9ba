/**
 * Questions to a person. Prompts run only when stdin and stdout are terminals; otherwise the
 * command fails with a usage error naming the flag that would have answered the question.
 * `@inquirer/prompts` is imported only when a question is actually asked.
 */
import { t } from '../i18n/index.ts';
import { type IO, isInteractive } from './io.ts';
import { CancelledError, UsageError } from './errors.ts';
import { checkboxTheme, confirmTheme, inputTheme, notEmpty, passwordTheme, someChosen } from './prompt-theme.ts';

export interface Choice {
  value: string;
  name?: string;
}

/** What a command may ask; tests pass a scripted fake. */
export interface Prompter {
  secret(message: string): Promise<string>;
  /** A line of text; `validate` answers `true` or why the answer is refused (asked again). */
  text(message: string, validate?: (value: string) => true | string): Promise<string>;
  confirm(message: string, defaultAnswer?: boolean): Promise<boolean>;
  checkbox(message: string, choices: readonly Choice[]): Promise<string[]>;
}

/** Fails with a usage error naming `flag` unless a person can be asked. */
export function requireInteractive(io: IO, flag: string, what?: string): void {
  if (!isInteractive(io)) {
    const need = what ? `${what}: ` : '';
    throw new UsageError(t('prompts.isRequiredWhenNot', { need, flag }));
  }
}

/**
 * The value of a flag, or a question on a terminal, or a usage error naming the flag.
 * @example const name = await flagOrAsk(deps, opts.name, '--name', (p) => p.text('Key name'));
 */
export async function flagOrAsk<T>(
  deps: { io: IO; prompter: Prompter },
  value: T | undefined,
  flag: string,
  ask: (prompter: Prompter) => Promise<T>,
): Promise<T> {
  if (value !== undefined) return value;
  requireInteractive(deps.io, flag);
  return ask(deps.prompter);
}

/**
 * Guards a destructive action: `--yes` passes; on a terminal the person confirms (a "no" is
 * cancelled, exit 2); otherwise a usage error names `--yes`.
 */
export async function confirmDestructive(
  deps: { io: IO; prompter: Prompter },
  yes: boolean | undefined,
  message: string,
): Promise<void> {
  if (yes) return;
  requireInteractive(deps.io, '--yes', 'confirmation needed');
  if (!(await deps.prompter.confirm(message, false))) throw new CancelledError();
}

/** Ctrl-C, or an aborted prompt, becomes a cancellation (exit 2). */
export function cancellable<T>(promise: Promise<T>): Promise<T> {
  return promise.catch((error: unknown) => {
    const name = error instanceof Error ? error.name : '';
    if (name === 'ExitPromptError' || name === 'AbortPromptError' || name === 'CancelPromptError') {
      throw new CancelledError();
    }
    throw error;
  });
}

/** The real prompter, on the process's terminal. */
export function inquirerPrompter(io: IO): Prompter {
  // Streams taken when a question is asked, not before: a command that asks nothing never makes stdin.
  const context = () => ({ input: io.stdin, output: io.stdout as NodeJS.WritableStream });
  const load = () => import('@inquirer/prompts');
  return {
    secret: (message) =>
      cancellable(load().then((p) => p.password({ message, mask: true, validate: notEmpty, theme: passwordTheme() }, context()))),
    text: (message, validate) =>
      cancellable(load().then((p) => p.input({ message, validate: (value) => (notEmpty(value) === true ? (validate?.(value) ?? true) : notEmpty(value)), theme: inputTheme() }, context()))),
    confirm: (message, defaultAnswer = false) =>
      cancellable(load().then((p) => p.confirm({ message, default: defaultAnswer, theme: confirmTheme() }, context()))),
    checkbox: (message, choices) =>
      cancellable(
        load().then((p) =>
          p.checkbox<string>(
            { message, choices: choices.map((c) => ({ value: c.value, name: c.name ?? c.value })), validate: someChosen, theme: checkboxTheme() },
            context(),
          ),
        ),
      ),
  };
}
