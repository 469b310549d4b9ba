/** A request header's value as one string: the first of a repeated header, undefined when absent. */
import type { FastifyRequest } from 'fastify';

export const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};
