/**
 * The one way the domain says no: a {@link Refusal} (the contract's rule refusal, gaps.md: a `kind`
 * and details beside it: `field`, `allowed`, `reason`, ...; and a sentence for people). Domain
 * functions return it (`Refusal | null` for a check, `T | Refusal` for a change); a handler returns
 * it as its answer, or throws it from a helper; server/http/errors.ts `toErrorAnswer` is the one
 * place that turns it into the HTTP answer (409 `{error:'rejected', refusal:{kind, ...details}, detail}`).
 */
import type { OrderStatus } from '../../sdk/contract/index.ts';

export interface RefusalDetails {
  /** The request field at fault, by its name in the body (`description`, `text`, `url`). */
  field?: string;
  /** The values that would have been accepted. */
  allowed?: readonly (string | number)[];
  /** Why, as a machine-readable word. */
  reason?: string;
  /** The order's status, when the refusal is about it. */
  status?: OrderStatus;
}

export class Refusal<K extends string = string> {
  readonly kind: K;
  declare readonly field?: string;
  declare readonly allowed?: readonly (string | number)[];
  declare readonly reason?: string;
  declare readonly status?: OrderStatus;
  /** A sentence for people (the answer's `detail`). */
  declare readonly detail?: string;

  constructor(kind: K, details: RefusalDetails = {}, detail?: string) {
    this.kind = kind;
    for (const [name, value] of Object.entries(details)) if (value !== undefined) Object.assign(this, { [name]: value });
    if (detail !== undefined) Object.assign(this, { detail });
  }

  /** The details as the answer carries them (`refusal: {kind, ...details}`). */
  details(): Record<string, unknown> {
    const { detail: _detail, ...rest } = this as Refusal<K> & Record<string, unknown>;
    return rest;
  }
}

export const refuse = <K extends string>(kind: K, details: RefusalDetails = {}, detail?: string): Refusal<K> => new Refusal(kind, details, detail);

export const isRefusal = (x: unknown): x is Refusal => x instanceof Refusal;
