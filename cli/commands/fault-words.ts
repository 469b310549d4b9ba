/**
 * A fault's problems (sdk/sandbox-faults.ts `FaultFlagsProblem`: a field and a code) as the key of
 * their words, one mapping for `seller sandbox fault add` (`sandboxFault.*`, naming flags) and a
 * scenario's `fault:` step (`scenario.rules.fault.*`, naming the step's keys).
 */
import { FAULT_OPERATIONS, type FaultFlagsCode } from '../../sdk/sandbox-faults.ts';
import { nearestWithin } from '../lib/edit-distance.ts';

/** The known operation nearest an unknown one (`--op`, a `fault:` step's `op`), if one is close. */
export const nearestOp = (op: string): string | undefined => nearestWithin(op, FAULT_OPERATIONS, 3);

const INVALID: Record<string, string> = { status: 'status', retryAfter: 'retryAfter', latency: 'duration', for: 'duration', hooks: 'hooks', times: 'count', every: 'every', seller: 'seller', bot: 'bot' };

/** `missingEffect`, `hooksNoOp`, `invalid.status`…: the key of a problem's words under its group. */
export function faultProblemKey(field: string, code: FaultFlagsCode): string {
  switch (code) {
    case 'unknown_op':
      return 'unknownOp';
    case 'missing':
      return field === 'status' ? 'missingEffect' : field === 'op' ? 'missingOp' : 'missingDelay';
    case 'conflict':
      if (field === 'op') return 'hooksNoOp';
      if (field === 'bot') return 'botNeedsTelegramOp';
      if (field === 'seller') return 'telegramNoSeller';
      if (field === 'retryAfter') return 'retryAfterStatusOnly';
      return 'oneEffect';
    default:
      return `invalid.${INVALID[field] ?? 'other'}`;
  }
}
