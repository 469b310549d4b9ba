/**
 * The contract: every operation of the Seller API (and the reference server's sandbox) as data.
 * Read this table first; the server, the SDK, the CLI, the MCP tools and the OpenAPI document
 * are derived from it.
 */
import { accountOperations } from './account.ts';
import { catalogOperations } from './catalog.ts';
import { hookOperations } from './hooks.ts';
import { keyOperations } from './keys.ts';
import { listingOperations } from './listings.ts';
import { orderOperations } from './orders.ts';
import { sandboxOperations } from './sandbox.ts';
import type { AnyOperation } from './operation.ts';

/** Every seller-API operation, keyed by id. */
export const apiOperations = {
  ...accountOperations,
  ...catalogOperations,
  ...listingOperations,
  ...orderOperations,
  ...keyOperations,
  ...hookOperations,
} as const;

export type ApiOperations = typeof apiOperations;
export type ApiOperationId = keyof ApiOperations;

export { sandboxOperations };
export type SandboxOperations = typeof sandboxOperations;

/** API and sandbox operations together, for the server and the coverage tests. */
export const allOperations: Record<string, AnyOperation> = { ...apiOperations, ...sandboxOperations };

export * from './common.ts';
export * from './enums.ts';
export * from './operation.ts';
export * from './catalog.ts';
export * from './listings.ts';
export * from './orders.ts';
export * from './account.ts';
export * from './keys.ts';
export * from './hooks.ts';
export * from './events.ts';
export * from './sandbox.ts';
export * from './sandbox-inspect.ts';
export * from './sandbox-scenario.ts';
export * from './sandbox-faults.ts';
export * from './sandbox-telegram.ts';
