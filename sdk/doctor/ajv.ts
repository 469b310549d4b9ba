/**
 * ajv, the doctor's JSON Schema checker: an optional peer dependency of the SDK, required (it is
 * CommonJS) when the doctor first compares an answer, so that a missing ajv is an error naming it.
 */
import { createRequire } from 'node:module';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { peerError } from '../peer.ts';

let loaded: typeof Ajv2020 | undefined;

/** ajv's draft 2020-12 class; throws naming the package when ajv is not installed. */
export function loadAjv(): typeof Ajv2020 {
  if (loaded) return loaded;
  try {
    loaded = (createRequire(import.meta.url)('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020 }).Ajv2020;
  } catch (error) {
    throw peerError(error, 'ajv', 'the doctor (service-seller/doctor, seller doctor)');
  }
  return loaded;
}
