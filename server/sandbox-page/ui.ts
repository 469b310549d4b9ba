/** The page's building blocks: htm bound to Preact, the status line, and a way to run an act. */
import { html } from 'htm/preact';
import { problemLine } from './problem-words.ts';

export { html };

type Say = (text: string, problem?: boolean) => void;
let say: Say = () => undefined;
/** Where `act` reports (the status line of the page). */
export const reportTo = (to: Say): void => void (say = to);

/**
 * Runs an act of the page; its result's words (when `done` gives some) or its refusal go to the status
 * line, which a screen reader reads (aria-live). Answers the act's result, or undefined when refused.
 */
export async function act<T>(run: () => Promise<T>, done?: (result: T) => string | undefined): Promise<T | undefined> {
  try {
    const result = await run();
    const words = done?.(result);
    if (words) say(words);
    return result;
  } catch (err) {
    say(problemLine(err), true);
    return undefined;
  }
}

/** A labelled form field's value by name. */
export const field = (form: HTMLFormElement, name: string): string => {
  const el = form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null;
  return el ? el.value.trim() : '';
};
