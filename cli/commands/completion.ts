/** `seller completion bash|zsh|fish`: prints the shell's completion script (cli/completion.ts). */
import { t } from '../i18n/index.ts';
import { Argument } from 'commander';
import { completionScript, SHELLS, type Shell } from '../completion.ts';
import type { Register } from '../lib/command.ts';
import type { Deps } from '../lib/deps.ts';

export interface CompletionOptions {
  shell: Shell;
}

export const register: Register = (command, app) => {
  command
    .addArgument(new Argument('<shell>', t('completion.shell')).choices(SHELLS))
    .addHelpText('after', t('completion.after'))
    .action(app.run((shell: Shell): CompletionOptions => ({ shell }), runCompletion));
};

export async function runCompletion(opts: CompletionOptions, deps: Deps): Promise<void> {
  deps.io.stdout.write(completionScript(opts.shell));
}
