/**
 * The verdict on an answer, shared by the tolerant reader (./answers.ts) and the strict check
 * (./strict.ts): a module of its own, so that neither imports the other.
 */
import type { AnswerIssue } from './errors.ts';

/** The verdict on an answer: the value to hand out, or what is wrong with it. */
export type Checked = { success: true; data: unknown } | { success: false; issues: AnswerIssue[] };

/** Checks an answer of operation `id`; `strict` mode's check comes from sdk/strict.ts. */
export type AnswerCheck = (id: string, answer: unknown) => Checked;
