/**
 * service-seller: the typed SDK of the marketplace Seller API.
 *
 * @example
 * import { SellerClient, isRejected } from 'service-seller';
 * const client = new SellerClient();            // SERVICE_API_KEY, SERVICE_BASE_URL
 * const me = await client.me.get();
 */
export { SellerClient, SDK_VERSION, DEFAULT_BASE_URL } from './client.ts';
export type { SellerClientOptions, CommonClientOptions, RawRequest } from './client.ts';
export { SandboxClient } from './sandbox.ts';
export type { SandboxClientOptions } from './sandbox.ts';
export type { ChangeEventRead, ChangesOptions } from './sandbox-changes.ts';
export { faultBody, FaultFlagsError, FAULT_OPERATIONS } from './sandbox-faults.ts';
export type { FaultFlags, FaultFlagsCode, AddFaultBody } from './sandbox-faults.ts';
export { PagedCall } from './pagination.ts';
export { WaitTimeoutError, fileWatermarkStore, memoryWatermarkStore } from './watch.ts';
export type { Watermark, WatermarkStore, WatchOptions, WatchRetry, WaitForOptions, OrderPolling } from './watch.ts';
export type { RawResponse, Sleep } from './transport.ts';
export type { Tolerant, Widened } from './open.ts';
export type { AnswerMode } from './answers.ts';
export type {
  RequestOptions,
  ImageUpload,
  ImageType,
  BinaryOperationId,
  MethodOf,
  ResultOf,
  AnswerOf,
  InputOf,
  PathArgs,
  SectionMethods,
} from './methods.ts';
export {
  SellerError,
  BadRequestError,
  AuthenticationError,
  PermissionError,
  NotFoundError,
  MethodNotAllowedError,
  RejectedError,
  IdempotencyMismatchError,
  RateLimitError,
  ServerError,
  ConnectionError,
  ResponseValidationError,
  detailMessage,
  errorFromResponse,
  isRejected,
  isSellerError,
  parseRetryAfter,
} from './errors.ts';
export type {
  SellerErrorCode,
  KnownErrorCode,
  SellerErrorInit,
  ErrorDetail,
  RefusalKindOf,
  TypedRefusal,
  KnownOperations,
  KnownOperationId,
  AnswerIssue,
  HeaderReader,
} from './errors.ts';

// The contract's types (sdk/contract/types.ts, written out at build time). Its zod schemas and the operation table are `service-seller/contract`
// (zod is an optional peer): this entry loads no schema library, so it stays small in a browser.
export type * from './contract/types.ts';
export * from './contract/constants.ts';
export * from './contract/error-data.ts';
export { BASE_PATH } from './contract/route.ts';
export { apiRouteTable, apiRoutes } from './contract/routes/index.ts';

// --- Input validation (sdk/validate/) -------------------------------------------------------
// Offline checks of tax and bank identifiers, so a form can fail before a call.
export * from './validate/index.ts';
// ---------------------------------------------------------------------------------------------
export * from './card-builder.ts';

// The marketplace's contact filter (sdk/contacts.ts), the same the reference server applies: check a
// description, note or message offline before sending it.
export { findContacts, hasContacts } from './contacts.ts';
export type { ContactKind, ContactMatch } from './contacts.ts';
// What it found, worded as the reference server words its `contacts` refusal.
export { CONTACT_WORDS, contactsIn, contactsSentence, type ContactsFound } from './contact-words.ts';
