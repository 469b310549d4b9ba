/**
 * Shell completion. `seller completion bash|zsh|fish` prints a script that, on every Tab, runs
 * `seller __complete <words…>` with the words typed after `seller` (the last one the word being
 * completed, maybe empty) and offers the lines it prints: the nouns, a noun's verbs, a command's
 * options, an option's choices (`--type` → subscription, account, …) and the saved profiles
 * (`--profile`). Completion reads the program itself, so it knows every command there is; only the
 * noun being completed is loaded.
 * Values the server holds (card numbers, order ids) are not completed: a Tab never makes a request.
 */
import type { Command, Option } from 'commander';
import { ProfileStore } from './lib/config.ts';
import type { IO } from './lib/io.ts';
import { COMPLETE_WORD } from './complete-word.ts';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];


/** The completion script for `shell`. */
export function completionScript(shell: Shell): string {
  switch (shell) {
    case 'bash':
      return `# seller completion for bash: add to ~/.bashrc
#   source <(seller completion bash)
_seller_complete() {
  local IFS=$'\\n'
  COMPREPLY=($(seller ${COMPLETE_WORD} "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
}
complete -o default -F _seller_complete seller
`;
    case 'zsh':
      return `#compdef seller
# seller completion for zsh: add to ~/.zshrc (after compinit)
#   source <(seller completion zsh)
_seller_complete() {
  local -a candidates
  candidates=("\${(@f)$(seller ${COMPLETE_WORD} "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  compadd -a candidates
}
compdef _seller_complete seller
`;
    case 'fish':
      return `# seller completion for fish: save as ~/.config/fish/completions/seller.fish
complete -c seller -f -a '(seller ${COMPLETE_WORD} (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null)'
`;
  }
}

/**
 * The candidates for the last of `words` (the words after `seller`, the last one being completed),
 * one a line. `program` is built with stubs; `loadNoun` fills in a noun's commands.
 */
export async function complete(
  words: readonly string[],
  program: Command,
  loadNoun: (name: string) => Promise<Command | undefined>,
  profileNames: () => string[] = () => [],
): Promise<string[]> {
  const partial = words.at(-1) ?? '';
  const before = words.slice(0, -1);
  let command = program;
  let expecting: Option | undefined;
  let loaded = false;
  /** Positional arguments given to `command` so far. */
  let positionals = 0;
  for (const word of before) {
    if (word === '--') return [];
    if (word.startsWith('-')) {
      const option = findOption(command, word);
      expecting = option && !word.includes('=') && (option.required || option.optional) ? option : undefined;
      continue;
    }
    if (expecting) {
      expecting = undefined;
      continue;
    }
    const sub = positionals === 0 ? findCommand(command, word) : undefined;
    if (!sub) {
      positionals++;
      continue;
    }
    positionals = 0;
    if (command === program && !loaded) {
      loaded = true;
      command = (await loadNoun(sub.name())) ?? sub;
    } else {
      command = sub;
    }
  }
  if (expecting) {
    const values = expecting.argChoices ?? (expecting as { completions?: readonly string[] }).completions ?? [];
    return matching(expecting.long === '--profile' ? profileNames() : values, partial);
  }
  if (partial.startsWith('-')) return matching(optionFlags(command, program), partial);
  const subs = positionals === 0 ? command.commands.filter((c) => !(c as Command & { _hidden?: boolean })._hidden) : [];
  const names = subs.flatMap((c) => [c.name(), ...c.aliases()]).filter((name) => name !== 'help');
  // A command's own positional argument with a fixed set of values (`completion <shell>`).
  const argument = command.registeredArguments[positionals];
  return matching([...names, ...(argument?.argChoices ?? [])], partial);
}

function matching(candidates: readonly string[], partial: string): string[] {
  return [...new Set(candidates)].filter((c) => c.startsWith(partial)).sort();
}

function findCommand(command: Command, word: string): Command | undefined {
  return command.commands.find((c) => c.name() === word || c.aliases().includes(word));
}

function findOption(command: Command, word: string): Option | undefined {
  const flag = word.split('=')[0]!;
  for (let c: Command | null = command; c; c = c.parent) {
    const option = c.options.find((o) => o.long === flag || o.short === flag);
    if (option) return option;
  }
  return undefined;
}

/** The long flags of a command and of the program (its global options), without hidden ones. */
function optionFlags(command: Command, program: Command): string[] {
  const flags: string[] = [];
  for (const c of new Set([command, program])) {
    for (const option of c.options) if (!option.hidden && option.long && (c === command || option.long !== '--version')) flags.push(option.long);
  }
  flags.push('--help');
  return flags;
}

/** Prints the candidates of `words`, one a line (what the scripts read). `loadNoun` answers undefined for a name that is no noun. */
export async function printCompletions(
  words: readonly string[],
  io: IO,
  program: Command,
  loadNoun: (name: string) => Promise<Command | undefined>,
): Promise<void> {
  // Saved profiles are local: `--profile <Tab>` offers them (a config file that cannot be read offers none).
  const profiles = () => {
    try {
      return new ProfileStore(io.env).names();
    } catch {
      return [];
    }
  };
  const candidates = await complete(words.length === 0 ? [''] : words, program, loadNoun, profiles);
  if (candidates.length > 0) io.stdout.write(`${candidates.join('\n')}\n`);
}
