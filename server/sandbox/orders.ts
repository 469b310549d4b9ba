/** Sandbox: the buyer's side of orders (buy, pay, cancel, accept, message, vault, dispute) and dispute resolution. */
import { sandboxHandlers } from '../http/handlers.ts';

export const orderSandboxHandlers = sandboxHandlers({});
