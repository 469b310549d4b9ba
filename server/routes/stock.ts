/** Auto-delivery stock: counts and refill; items sealed at rest, never returned. */
import { apiHandlers } from '../http/handlers.ts';

export const stockHandlers = apiHandlers({});
