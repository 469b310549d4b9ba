/**
 * Errors are data (DESIGN.md): what every refusal, every other error answer and every offline check
 * of the SDK carries, declared once. A client says it in its own words from these codes and values;
 * the English `message`/`detail` beside them is for developers and for codes a client does not know.
 *
 * Plain values only (no zod), so the SDK's errors and the CLI's error words load no schema library.
 * The schemas of the envelope (sdk/contract/common.ts `Refusal`, `ErrorDetail`) are built from these.
 */
import { URL_REFUSAL_REASONS } from './constants.ts';

/** What the contact filter finds (the `reason` of a `contacts` refusal). */
export const CONTACT_KINDS = ['email', 'phone', 'messenger', 'link'] as const;

/** The `reason` of a bank or tax identifier check (sdk/validate), per refusal kind. */
export const BANK_CHECK_REASONS = {
  bik_bad: ['missing', 'digits', 'length', 'prefix'],
  account_bad: ['missing', 'digits', 'length', 'control'],
  inn_bad: ['missing', 'digits', 'length', 'company_length', 'person_length', 'check_digit_10', 'check_digit_11', 'check_digit_12'],
  kpp_bad: ['missing', 'length', 'form'],
  phone_format: ['missing', 'digits', 'length', 'prefix'],
} as const;

/**
 * Every `reason` a refusal kind may carry, per kind. A kind not listed carries no reason. The
 * server sends no other reason; a client reads an unknown one without failing (a newer service's).
 */
export const REFUSAL_REASONS = {
  complaint: [
    'unknown_service',
    'fixed_after_creation',
    'not_allowed',
    'required',
    'credits_only',
    'not_for_pack',
    'not_for_rate',
    'delivery_method_not_stockable',
  ],
  contacts: CONTACT_KINDS,
  state_moved: ['not_completed', 'reviewed', 'hooks_off', 'hooks_paused'],
  need_next_charge: ['required'],
  test_to_real_needs_papers: ['test_seller', 'admission_incomplete'],
  url: URL_REFUSAL_REASONS,
  image_type: ['unsupported_type', 'content_mismatch'],
  image_size: ['too_large'],
  already_decided: ['approved', 'rejected'],
  clock_leased: ['held'],
  ...BANK_CHECK_REASONS,
} as const;

export type RefusalReasons = typeof REFUSAL_REASONS;
export type RefusalReasonOf<K extends string> = K extends keyof RefusalReasons ? RefusalReasons[K][number] : never;

/**
 * The values a refusal (and an offline check) may carry beside `kind` and `reason`, each with what
 * it means. Declared here once; the `Refusal` schema lists them.
 */
export const REFUSAL_VALUES = {
  field: 'the request field at fault, by its bare name in the body (`nextChargeDay`, `description`)',
  allowed: 'the values that would have been accepted',
  status: "the order's status, when the refusal is about it",
  length: 'the length of the value given (characters, digits or bytes)',
  expected: 'the lengths that would have been accepted',
  max: 'the largest accepted amount (bytes of an image, open orders of a seller)',
  tail: 'the last four digits of the account number given',
  record: 'what was not found (a `not_found` refusal): one of NOT_FOUND_RECORDS',
  id: 'the id or number of what was not found',
  holder: 'who holds the clock lease (a `clock_leased` refusal)',
  until: 'until when the lease is held unless renewed, ISO time (a `clock_leased` refusal)',
} as const;

/** What a `not_found` answer (404, or a 409 refusal of kind `not_found`) says was not found. */
export const NOT_FOUND_RECORDS = [
  'card',
  'order',
  'seller',
  'position',
  'catalog_request',
  'hook',
  'question',
  'review',
  'key',
  'vault',
  'image',
  'probe',
  'fault',
  'delivery',
  'route',
] as const;

/** Which secret a `no_key` / `bad_key` answer is about: an API key, or the server's admin token (sandbox). */
export const CREDENTIALS = ['api_key', 'admin_token'] as const;

/**
 * The `code` of one issue of a `bad_request` (`detail.issues[]`): zod's issue codes, and the
 * server's own checks of a request before its schema.
 */
export const ISSUE_CODES = [
  'invalid_type',
  'too_small',
  'too_big',
  'invalid_format',
  'invalid_value',
  'unrecognized_keys',
  'invalid_union',
  'invalid_key',
  'invalid_element',
  'not_multiple_of',
  'custom',
  'required',
  'not_json',
  'content_type',
  'too_large',
  'no_body',
  'bad_url',
  'cursor',
  'idempotency_key',
] as const;

/**
 * The offline checks of the SDK that are not a refusal of the service (the bank and tax checks
 * answer the refusal kinds above): each a code with its reasons.
 * - `card_choice`: `buildCard`'s `CardChoiceError.reason` (sdk/card-builder.ts);
 * - `next_charge`: `nextChargeProblem(…).kind` (sdk/next-charge.ts);
 * - `payout_method`: `validatePayout` of a method other than `account`/`sbp`.
 */
export const CHECK_CODES = {
  card_choice: [
    'required',
    'not_allowed',
    'type_not_available',
    'self_employed_forbidden',
    'credits_only',
    'not_for_pack',
    'not_for_rate',
    'out_of_range',
  ],
  next_charge: ['not_a_date', 'past'],
  payout_method: ['not_allowed'],
} as const;

export type CardChoiceReason = (typeof CHECK_CODES)['card_choice'][number];
export type NotFoundRecord = (typeof NOT_FOUND_RECORDS)[number];
export type Credential = (typeof CREDENTIALS)[number];
export type IssueCode = (typeof ISSUE_CODES)[number];
export type ContactKind = (typeof CONTACT_KINDS)[number];
