/** Cards: create, list, read, update, delete, state, copy, test marking, image. */
import { apiHandlers } from '../http/handlers.ts';

export const listingHandlers = apiHandlers({});
