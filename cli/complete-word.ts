/**
 * The hidden word the completion scripts call `seller` with (`seller __complete <words…>`): read by
 * cli/program.ts, written into the scripts by cli/completion.ts. A module of its own, so that
 * neither imports the other.
 */
export const COMPLETE_WORD = '__complete';
