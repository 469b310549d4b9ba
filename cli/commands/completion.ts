/** `seller completion bash|zsh|fish`: prints the shell's completion script (cli/completion.ts). */
import { Argument } from 'commander';
import { completionScript, SHELLS, type Shell } from '../completion.ts';
import type { Register } from '../lib/command.ts';
import type { Deps } from '../lib/deps.ts';

export interface CompletionOptions {
  shell: Shell;
}

export const register: Register = (command, app) => {
  command
    .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS))
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ source <(seller completion bash)         # in ~/.bashrc',
        '  $ source <(seller completion zsh)          # in ~/.zshrc, after compinit',
        '  $ seller completion fish > ~/.config/fish/completions/seller.fish',
        '',
        'Tab then completes nouns, verbs, options and the choices of options such as --type;',
        'it never asks the server (no card numbers or order ids).',
      ].join('\n'),
    )
    .action(app.run((shell: Shell): CompletionOptions => ({ shell }), runCompletion));
};

export async function runCompletion(opts: CompletionOptions, deps: Deps): Promise<void> {
  deps.io.stdout.write(completionScript(opts.shell));
}
