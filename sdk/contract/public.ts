/**
 * What the SDK entry (`service-seller`) exposes of the contract: the schemas and types of every
 * resource, request, answer, error and event, the enumerations, and the API operation table.
 * (The per-section tables come along: they are slices of the API table.) Not exposed: the helpers
 * that build the contract (`op`, `page`, `intParam`, …) and the sandbox's
 * table (reference-server only), so they stay free to change.
 */
export * from './enums.ts';
export * from './events.ts';
export * from './catalog.ts';
export * from './listings.ts';
export * from './orders.ts';
export * from './account.ts';
export * from './keys.ts';
export * from './hooks.ts';
export { apiOperations, type ApiOperations, type ApiOperationId } from './index.ts';
export {
  AUTH_CODES,
  DateString,
  ERROR_STATUS,
  ErrorBody,
  ErrorCode,
  ErrorDetail,
  RequestIssue,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  Refusal,
  Rub,
  SCOPES,
  Scope,
  Slug,
  Timestamp,
  type Page,
} from './common.ts';
export { BASE_PATH, type AnyOperation, type HttpMethod, type Operation, type Surface } from './operation.ts';
