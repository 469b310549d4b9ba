/** Every sandbox handler, by operation id. */
import type { SandboxHandlers } from '../http/handlers.ts';
import { marketplaceSandboxHandlers } from './marketplace.ts';
import { sellerSandboxHandlers } from './sellers.ts';

export const sandboxHandlerTable: SandboxHandlers = {
  ...sellerSandboxHandlers,
  ...marketplaceSandboxHandlers,
};
