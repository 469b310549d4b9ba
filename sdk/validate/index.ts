/**
 * Offline validators exported by the SDK, so a form can fail before a call. The reference server
 * uses the same functions for its refusals.
 */
export {
  accountControlDigit,
  isSettlementCentreBik,
  normalizePhone,
  validateAccount,
  validateBik,
  validateInn,
  validateKpp,
  validatePayout,
  validatePhone,
} from './bank.ts';
export type { BankCheckKind, CheckFailure, CheckResult, CheckValues, PayoutInput } from './bank.ts';
