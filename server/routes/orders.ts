/** Orders: list, read, confirm, decline, deliver, messages, vaults, dispute reply. */
import { apiHandlers } from '../http/handlers.ts';

export const orderHandlers = apiHandlers({});
