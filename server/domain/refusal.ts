/**
 * The one way the domain says no: a {@link Refusal} (the contract's rule refusal, gaps.md: a `kind`
 * and details beside it: `field`, `allowed`, `reason`, ...; and a sentence for people). Domain
 * functions return it (`Refusal | null` for a check, `T | Refusal` for a change); a handler returns
 * it as its answer, or throws it from a helper; server/http/errors.ts `toErrorAnswer` is the one
 * place that turns it into the HTTP answer (409 `{error:'rejected', refusal:{kind, ...details}, detail}`).
 */
import type { NotFoundRecord, OrderStatus, RefusalReasonOf } from '../../sdk/contract/index.ts';

/**
 * The details of a refusal of kind `K` beside its kind (sdk/contract/error-data.ts `REFUSAL_VALUES`):
 * its `reason` is one the contract declares for `K` (`REFUSAL_REASONS`), checked when compiled.
 */
export interface RefusalDetails<K extends string = string> {
  /** The request field at fault, by its bare name in the body (`description`, `text`, `nextChargeDay`). */
  field?: string;
  /** The values that would have been accepted. */
  allowed?: readonly (string | number)[];
  /** Why, as a machine-readable word of the contract's list for this kind. */
  reason?: RefusalReasonOf<K>;
  /** The order's status, when the refusal is about it. */
  status?: OrderStatus;
  /** The length of the value given (characters, digits or bytes). */
  length?: number;
  /** The lengths that would have been accepted. */
  expected?: readonly number[];
  /** The largest accepted amount. */
  max?: number;
  /** The last four digits of an account number given. */
  tail?: string;
  /** What was not found (`not_found`). */
  record?: NotFoundRecord;
  /** The id or number of what was not found. */
  id?: string;
  /** Who holds the clock lease (`clock_leased`). */
  holder?: string;
  /** Until when the lease is held unless renewed, ISO time (`clock_leased`). */
  until?: string;
}

export class Refusal<K extends string = string> {
  readonly kind: K;
  declare readonly field?: string;
  declare readonly allowed?: readonly (string | number)[];
  declare readonly reason?: string;
  declare readonly status?: OrderStatus;
  /** A sentence for developers (the answer's `detail`). */
  declare readonly detail?: string;

  constructor(kind: K, details: RefusalDetails<K> = {}, detail?: string) {
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

export const refuse = <K extends string>(kind: K, details: RefusalDetails<K> = {}, detail?: string): Refusal<K> => new Refusal(kind, details, detail);

export const isRefusal = (x: unknown): x is Refusal => x instanceof Refusal;
