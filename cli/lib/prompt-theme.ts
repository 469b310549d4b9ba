/**
 * @inquirer/prompts' own words in the run's language, through the themes its prompts take (the
 * confirm prompt's `keywords`, the key hints' `keysHelpTip`, the masked text, the `i18n` of a
 * disabled choice): `да`/`нет` (typed `д`, `да`, `н`, `нет`, and `y`/`n` still), `↑↓ перемещение •
 * ⏎ выбрать`. Texts from the catalogue (`promptWords.*`), so English reads as inquirer's own.
 */
import { styleText } from 'node:util';
import { t } from '../i18n/index.ts';

/** inquirer's key actions and the catalogue's words for them. */
const ACTIONS: Readonly<Record<string, string>> = {
  navigate: 'navigate',
  select: 'select',
  submit: 'submit',
  all: 'all',
  invert: 'invert',
  'toggle visibility': 'toggleVisibility',
};

/** The line of key hints under a prompt; in a checkbox, `select` marks a choice rather than picks it. */
function keysHelpTip(checkbox: boolean): (keys: Array<[string, string]>) => string {
  return (keys) =>
    keys
      .map(([key, action]) => {
        const said = checkbox && action === 'select' ? t('promptWords.keys.check') : ACTIONS[action] ? t(`promptWords.keys.${ACTIONS[action]}`) : action;
        const name = key === 'space' ? t('promptWords.keyNames.space') : key;
        return `${styleText('bold', name)} ${styleText('dim', said)}`;
      })
      .join(styleText('dim', ' • '));
}

/** An error line as inquirer draws it; the one text a search prompt has no option for is said here. */
function error(text: string): string {
  // i18next-instrument-ignore-next-line: the English text @inquirer/search prints, matched to say it from the catalogue
  const said = text === 'No results found' ? t('words.noResults') : text;
  return styleText('red', `> ${said}`);
}

export const confirmTheme = () => ({
  keywords: {
    yes: t('promptWords.yes'),
    no: t('promptWords.no'),
    error: ({ yes, no }: { yes: string; no: string }) => t('promptWords.answerYesOrNo', { yes, no }),
  },
});

export const selectTheme = () => ({ style: { keysHelpTip: keysHelpTip(false), error }, i18n: { disabledError: t('promptWords.disabled') } });

export const checkboxTheme = () => ({ style: { keysHelpTip: keysHelpTip(true), error }, i18n: { disabledError: t('promptWords.disabled') } });

export const passwordTheme = () => ({ style: { keysHelpTip: keysHelpTip(false), maskedText: t('promptWords.masked'), error } });

export const inputTheme = () => ({ style: { error } });

/** A prompt's check that an answer is not empty. */
export const notEmpty = (value: string): true | string => (value.trim() ? true : t('prompts.mustNotBeEmpty'));

/** At least one choice of a checkbox. */
export const someChosen = (chosen: readonly unknown[]): true | string => (chosen.length > 0 ? true : t('promptWords.chooseOne'));
