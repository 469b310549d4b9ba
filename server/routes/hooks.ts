/** The event subscription, delivery log, test event and probe receiver. */
import { apiHandlers } from '../http/handlers.ts';

export const hookHandlers = apiHandlers({});
