/** Every seller-API handler, by operation id. A capability adds its module here. */
import type { ApiHandlers } from '../http/handlers.ts';
import { catalogHandlers } from './catalog.ts';
import { keyHandlers } from './keys.ts';
import { meHandlers } from './me.ts';

export const apiHandlerTable: ApiHandlers = {
  ...meHandlers,
  ...keyHandlers,
  ...catalogHandlers,
};
