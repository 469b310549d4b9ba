/**
 * The route tables: every operation's route (method, path, scope, status, refusal kinds, paging,
 * input), as plain data. The SDK derives its methods from these and sends every call from them;
 * nothing here loads zod. The schemas join the routes in the section files (sdk/contract/*.ts).
 */
import { accountRoutes } from './account.ts';
import { catalogRoutes } from './catalog.ts';
import { hooksRoutes } from './hooks.ts';
import { keysRoutes } from './keys.ts';
import { listingsRoutes } from './listings.ts';
import { ordersRoutes } from './orders.ts';
import { sandboxRoutes as sandbox } from './sandbox.ts';
import { sandboxInspectRoutes } from './sandbox-inspect.ts';
import { sandboxScenarioRoutes } from './sandbox-scenario.ts';
import { sandboxFaultRoutes } from './sandbox-faults.ts';
import { sandboxTelegramRoutes } from './sandbox-telegram.ts';
import type { Route } from '../route.ts';

/** Every seller-API route, keyed by operation id (the same keys as `apiOperations`). */
export const apiRouteTable = {
  ...accountRoutes,
  ...catalogRoutes,
  ...listingsRoutes,
  ...ordersRoutes,
  ...keysRoutes,
  ...hooksRoutes,
} as const;

/** Every sandbox route (reference server only), keyed by operation id. */
// Pure (no spread, which a bundler must keep): a bundle of the seller client leaves the sandbox's tables out.
export const sandboxRouteTable: typeof sandbox & typeof sandboxFaultRoutes & typeof sandboxScenarioRoutes & typeof sandboxInspectRoutes & typeof sandboxTelegramRoutes = /* @__PURE__ */ Object.assign(
  {},
  sandbox,
  sandboxFaultRoutes,
  sandboxScenarioRoutes,
  sandboxInspectRoutes,
  sandboxTelegramRoutes,
);

export const apiRoutes: readonly Route[] = Object.values(apiRouteTable);
export const sandboxRoutes: readonly Route[] = /* @__PURE__ */ Object.values(sandboxRouteTable);
