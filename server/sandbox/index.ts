/** Every sandbox handler, by operation id. */
import type { SandboxHandlers } from '../http/handlers.ts';
import { faultSandboxHandlers } from './faults.ts';
import { feedbackSandboxHandlers } from './feedback.ts';
import { inspectActSandboxHandlers } from './inspect-acts.ts';
import { inspectSandboxHandlers } from './inspect.ts';
import { marketplaceSandboxHandlers } from './marketplace.ts';
import { orderSandboxHandlers } from './orders.ts';
import { scenarioSandboxHandlers } from './scenario.ts';
import { sellerSandboxHandlers } from './sellers.ts';
import { telegramSandboxHandlers } from './telegram.ts';

export const sandboxHandlerTable: SandboxHandlers = {
  ...sellerSandboxHandlers,
  ...marketplaceSandboxHandlers,
  ...orderSandboxHandlers,
  ...feedbackSandboxHandlers,
  ...inspectSandboxHandlers,
  ...inspectActSandboxHandlers,
  ...scenarioSandboxHandlers,
  ...faultSandboxHandlers,
  ...telegramSandboxHandlers,
};
