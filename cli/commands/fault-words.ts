/**
 * A fault's problems (sdk/sandbox-faults.ts `FaultFlagsProblem`: a field and a code) as the key of
 * their words, one mapping for `seller sandbox fault add` (`sandboxFault.*`, naming flags) and a
 * scenario's `fault:` step (`scenario.rules.fault.*`, naming the step's keys).
 */
import type { FaultFlagsCode } from '../../sdk/sandbox-faults.ts';

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
