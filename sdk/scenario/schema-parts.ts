/**
 * The pieces the scenario format's schemas are built of (./verbs.ts and the files beside it): names
 * (`as: o1`, `order: o1`), durations, and the descriptions the reference reads (./reference.ts).
 */
import { z } from 'zod';
import { parseDuration } from '../duration.ts';

/** What a named result is. */
export type NameKind = 'seller' | 'card' | 'order' | 'request' | 'question' | 'review' | 'fault' | 'bot';

/** A name given with `as` and used by later steps (`order: o1`). */
export const NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
export const Name = z.string().regex(NAME, 'a name: a letter or _, then letters, digits, _ or - (at most 64)');

/** A duration as the CLI takes one (`90s`, `30m`, `2h`, `1d`, `1h30m`), or seconds; in seconds. */
export const Duration = z
  .union([z.number().int().min(0), z.string()])
  .transform((value, ctx) => {
    const seconds = typeof value === 'number' ? value : parseDuration(value);
    if (seconds === undefined) {
      ctx.addIssue({ code: 'custom', message: `not a duration: write it as 90s, 30m, 2h, 1d or 1h30m`, params: { scenario: 'duration' } });
      return z.NEVER;
    }
    return seconds;
  })
  .meta({ scenarioType: 'duration' });

/** A described field: the reference (./reference.ts: docs/scenarios.md, `seller sandbox run --steps`) reads it. */
export const d = <S extends z.ZodType>(schema: S, description: string): S => schema.describe(description);
/** A contract body's fields, each described for the reference. */
export function described<T extends z.ZodRawShape>(shape: T, descriptions: { [K in keyof T]: string }): T {
  return Object.fromEntries(Object.entries(shape).map(([k, schema]) => [k, d(schema as z.ZodType, descriptions[k as keyof T])])) as unknown as T;
}

/** `as`: the name the step's result gets. */
export const asA = (what: string) => ({ as: d(Name.optional(), `the name of the ${what} made, for later steps`) });

/** How long an expectation may wait: at most 10 minutes. */
export const Within = d(Duration.refine((seconds) => seconds <= 600, { message: 'an expectation waits at most 10m', params: { scenario: 'within_max' } }).optional(), 'wait up to this long for it to hold (at most 10m; default: check once)');
export const orderName = (what: string) => d(Name, what);
export const order = { order: orderName('the order (a name given by buy)') };
export const bodyOf = <S extends z.ZodType | undefined>(schema: S) => (schema as unknown as z.ZodObject).shape;

/** What a verb does and a step of it, as its arguments' metadata (`.meta({ description, examples })`). */
export interface VerbDoc {
  description: string;
  /** One step as a scenario writes it, such as `pay: { order: o1 }`. */
  example: string;
}

/** Arguments with what they do and an example step: the reference reads both (`z.globalRegistry`). */
export const doc = <S extends z.ZodType>(args: S, { description, example }: VerbDoc): S => args.meta({ description, examples: [example] });
