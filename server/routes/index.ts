/** Every seller-API handler, by operation id. A capability adds its module here. */
import type { ApiHandlers } from '../http/handlers.ts';
import { accountHandlers } from './account.ts';
import { catalogHandlers } from './catalog.ts';
import { catalogExtraHandlers } from './catalog-extras.ts';
import { hookHandlers } from './hooks.ts';
import { keyHandlers } from './keys.ts';
import { listingHandlers } from './listings.ts';
import { meHandlers } from './me.ts';
import { orderHandlers } from './orders.ts';
import { stockHandlers } from './stock.ts';

export const apiHandlerTable: ApiHandlers = {
  ...meHandlers,
  ...keyHandlers,
  ...catalogHandlers,
  ...catalogExtraHandlers,
  ...listingHandlers,
  ...stockHandlers,
  ...orderHandlers,
  ...accountHandlers,
  ...hookHandlers,
};
