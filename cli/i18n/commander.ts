/**
 * commander's own words in the active language: the help's section titles and its error messages
 * (unknown command or option with the typo suggestion, a missing argument, …). commander has no
 * catalogue of its own, so its English messages are matched by their known forms and re-said from
 * ours; a message of a form we do not know passes through unchanged. In English nothing is touched.
 */
import { Help, type Argument, type Command, type Option } from 'commander';
import { language, t, tOr } from './index.ts';

const TITLES: Readonly<Record<string, string>> = {
  'Usage:': 'usage',
  'Options:': 'options',
  'Commands:': 'commands',
  'Arguments:': 'arguments',
  'Global Options:': 'globalOptions',
};

/** The section title commander styles (`Options:`), in the active language. */
export function title(text: string): string {
  return language() !== 'en' && Object.hasOwn(TITLES, text) ? t(`commander.titles.${TITLES[text]}`) : text;
}

type Rule = [RegExp, (match: RegExpMatchArray) => string];

/** The typo suggestion commander appends (`\n(Did you mean login?)`). */
function suggestion(tail: string | undefined): string {
  if (!tail) return '';
  const one = /^\n\(Did you mean one of (.+)\?\)$/.exec(tail);
  if (one) return `\n${t('commander.didYouMeanOneOf', { what: one[1] })}`;
  const single = /^\n\(Did you mean (.+)\?\)$/.exec(tail);
  return single ? `\n${t('commander.didYouMean', { what: single[1] })}` : tail;
}

function reason(text: string): string {
  const choices = /^Allowed choices are (.+)\.$/.exec(text);
  if (choices) return t('commander.allowedChoices', { choices: choices[1] });
  return text;
}

/** An argument named as the help's Arguments section names it (`number` → `номер`). */
const argumentName = (name: string): string => tOr(`commander.placeholders.${name}`, name);

const RULES: Rule[] = [
  [/^error: unknown command '([^']*)'(\n[\s\S]*)?$/, (m) => t('commander.unknownCommand', { name: m[1] }) + suggestion(m[2])],
  [/^error: unknown option '([^']*)'(\n[\s\S]*)?$/, (m) => t('commander.unknownOption', { name: m[1] }) + suggestion(m[2])],
  [/^error: missing required argument '([^']*)'$/, (m) => t('commander.missingArgument', { name: argumentName(m[1]!) })],
  [/^error: option '([^']*)' argument missing$/, (m) => t('commander.optionMissingArgument', { name: placeholders(m[1]!) })],
  [/^error: required option '([^']*)' not specified$/, (m) => t('commander.missingMandatoryOption', { name: placeholders(m[1]!) })],
  [/^error: option '([^']*)' cannot be used with option '([^']*)'$/, (m) => t('commander.conflictingOptions', { first: placeholders(m[1]!), second: placeholders(m[2]!) })],
  [/^error: (.+) cannot be used with (.+)$/, (m) => t('commander.conflictingOption', { first: placeholders(m[1]!), second: placeholders(m[2]!) })],
  [
    /^error: too many arguments(?: for '([^']*)')?\. Expected (\d+) arguments? but got (\d+)\.$/,
    (m) => t('commander.excessArguments', { count: Number(m[2]), received: m[3], forCommand: m[1] ? t('commander.forCommand', { name: m[1] }) : '' }),
  ],
  [/^error: command-argument value '([^']*)' is invalid for argument '([^']*)'\. (.*)$/s, (m) => t('commander.invalidArgument', { value: m[1], name: argumentName(m[2]!), reason: reason(m[3]!) })],
  [/^error: option '([^']*)' argument '([^']*)' is invalid\. (.*)$/s, (m) => t('commander.invalidOption', { name: placeholders(m[1]!), value: m[2], reason: reason(m[3]!) })],
];

/** A commander error message (one line or more, ending in a newline) in the active language. */
export function commanderError(message: string): string {
  if (language() === 'en') return message;
  const text = message.replace(/\n$/, '');
  for (const [pattern, say] of RULES) {
    const match = pattern.exec(text);
    if (match) return `${say(match)}\n`;
  }
  return message;
}

/** The words commander puts in an option's description: `(default: "now")`, `(choices: …)`. */
function helpWords(text: string): string {
  if (language() === 'en') return text;
  return text.replace(/\((default|choices|env|preset): /g, (_all, word: string) => `(${t(`commander.helpWords.${word}`)}: `);
}

/**
 * `[options]`, `[command]` and a value's placeholder (`<n>`, `<date>`, `<number>`) in a usage line or
 * a term, in the active language (`commander.placeholders.*`; one without words stays as written).
 */
function placeholders(text: string): string {
  if (language() === 'en') return text;
  return text
    .replace(/\[(options|command)\]/g, (_all, word: string) => `[${t(`commander.helpWords.${word}`)}]`)
    // A value's placeholder, required (`<n>`) or optional (`[file]`, `--steps [verb]`).
    .replace(/([<[])([A-Za-z]+)(\.\.\.)?([>\]])/g, (all, open: string, word: string, more: string | undefined, close: string) => {
      const said = tOr(`commander.placeholders.${word}`, '');
      return said && (open === '<') === (close === '>') ? `${open}${said}${more ?? ''}${close}` : all;
    });
}

/** Makes `program` (and the commands it makes later, which inherit its settings) speak the active language. */
export function localize(program: Command): Command {
  return program
    .configureHelp({
      showGlobalOptions: true,
      styleTitle: title,
      // Said before the columns are measured, so the help stays aligned.
      commandUsage(this: Help, command: Command) {
        return placeholders(Help.prototype.commandUsage.call(this, command));
      },
      subcommandTerm(this: Help, command: Command) {
        return placeholders(Help.prototype.subcommandTerm.call(this, command));
      },
      optionTerm(this: Help, option: Option) {
        return placeholders(Help.prototype.optionTerm.call(this, option));
      },
      argumentTerm(this: Help, argument: Argument) {
        // The Arguments section names an argument bare (`number`), without its brackets.
        const term = Help.prototype.argumentTerm.call(this, argument);
        return language() === 'en' ? term : tOr(`commander.placeholders.${term}`, placeholders(term));
      },
      // Said before the text is wrapped: `(default: 5)` may be cut over two lines afterwards.
      optionDescription(this: Help, option: Option) {
        return helpWords(Help.prototype.optionDescription.call(this, option));
      },
      argumentDescription(this: Help, argument: Argument) {
        return helpWords(Help.prototype.argumentDescription.call(this, argument));
      },
    })
    .configureOutput({ outputError: (text, write) => write(commanderError(text)) });
}
