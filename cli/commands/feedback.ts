/**
 * What buyers say and what the seller says back (scope `orders`):
 *   `seller questions list [--unanswered]`, `seller questions answer ID --text T`;
 *   `seller reviews list`, `seller reviews reply ID --text T`;
 *   `seller complaints list`, `seller complaints file --order ID --reason R --text T`.
 * Answers, replies and complaints pass the contact filter: a refusal says what to remove.
 */
import { refuseContacts } from '../lib/guards.ts';
import { t } from '../i18n/index.ts';
import { cardNo, dateTime } from '../i18n/format.ts';
import { Option } from 'commander';
import { COMPLAINT_REASONS } from '../../sdk/contract/account.ts';
import { openOption, type Register } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { UsageError } from '../lib/errors.ts';
import { isInteractive } from '../lib/io.ts';
import { listOptions, pageFlags, printList, type ListOptions, type RawListOptions } from '../lib/list.ts';
import { printJson, say } from '../lib/output.ts';
import { textArg, withHints } from './orders-common.ts';

/** What to do when the contact filter refused a text. */
export const contactsHint = (): string => t('feedback.removeEMailsPhone');

type ComplaintReason = (typeof COMPLAINT_REASONS)[number];

export interface QuestionsListOptions extends ListOptions {
  unanswered: boolean;
}

export interface TextOptions {
  id: string;
  text?: string | undefined;
}

export interface ComplaintOptions {
  order?: string | undefined;
  reason?: ComplaintReason | undefined;
  text?: string | undefined;
}

/** Shortens a text for a table cell; `--json` has it whole. */
export function excerpt(text: string | null, max = 60): string | null {
  if (text === null) return null;
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

// ---------------------------------------------------------------------------------------------
// questions

export const registerQuestions: Register = (noun, app) => {
  listOptions(
    noun
      .command('list')
      .alias('ls')
      .description(t('feedback.listBuyerQuestionsAbout'))
      .option('--unanswered', t('feedback.onlyQuestionsWithoutAn')),
    t('feedback.questions'),
  ).action(
    app.run(
      (o: RawListOptions & { unanswered?: boolean }): QuestionsListOptions => ({ ...pageFlags(o), unanswered: o.unanswered === true }),
      runQuestionsList,
    ),
  );
  noun
    .command('answer')
    .description(t('feedback.answerAQuestionNo'))
    .argument('<id>', t('feedback.questionIdQ'))
    .option('--text <text>', t('feedback.theAnswerReadsStdin'))
    .action(app.run((id: string, o: { text?: string }): TextOptions => ({ id, text: o.text }), runQuestionsAnswer));
};

export async function runQuestionsList(opts: QuestionsListOptions, deps: Deps): Promise<void> {
  const call = deps.client().questions.list({ onlyUnanswered: opts.unanswered || undefined, limit: opts.limit, cursor: opts.cursor });
  await printList(deps, call, {
    all: opts.all,
    what: t('feedback.questions'),
    empty: opts.unanswered ? t('feedback.noUnansweredQuestions') : t('feedback.noQuestions'),
    columns: [
      { header: t('feedback.id'), value: (q) => q.id },
      { header: t('feedback.card'), value: (q) => cardNo(q.number) },
      { header: t('feedback.asked'), value: (q) => dateTime(q.at) },
      { header: t('feedback.question'), value: (q) => excerpt(q.text) },
      { header: t('feedback.answer'), value: (q) => excerpt(q.answer, 40) ?? t('feedback.unanswered') },
    ],
  });
}

export async function runQuestionsAnswer(opts: TextOptions, deps: Deps): Promise<void> {
  const client = deps.client();
  const text = await textArg(deps, opts.text, '--text', t('feedback.yourAnswer'));
  refuseContacts(text, 'answer');
  const question = await withHints(client.questions.answer(opts.id, { text }), { contacts: contactsHint() });
  if (wantsJson(deps)) printJson(deps.io, question);
  else say(deps.io, t('feedback.answeredCard', { id: question.id, number: question.number }));
}

// ---------------------------------------------------------------------------------------------
// reviews

export const registerReviews: Register = (noun, app) => {
  listOptions(noun.command('list').alias('ls').description(t('feedback.listReviewsOfYour')), t('feedback.reviews')).action(
    app.run(pageFlags, runReviewsList),
  );
  noun
    .command('reply')
    .description(t('feedback.replyToAReview'))
    .argument('<id>', t('feedback.reviewIdRev'))
    .option('--text <text>', t('feedback.theReplyReadsStdin'))
    .action(app.run((id: string, o: { text?: string }): TextOptions => ({ id, text: o.text }), runReviewsReply));
};

// i18next-instrument-ignore-next-line: star symbols, not words
export const stars = (n: number) => `${'★'.repeat(n)}${'☆'.repeat(Math.max(0, 5 - n))}`;

export async function runReviewsList(opts: ListOptions, deps: Deps): Promise<void> {
  await printList(deps, deps.client().reviews.list({ limit: opts.limit, cursor: opts.cursor }), {
    all: opts.all,
    what: t('feedback.reviews'),
    empty: t('feedback.noReviews'),
    columns: [
      { header: t('feedback.id'), value: (r) => r.id },
      { header: t('feedback.card'), value: (r) => cardNo(r.number) },
      { header: t('feedback.stars'), value: (r) => (deps.io.stdoutIsTTY ? stars(r.stars) : r.stars) },
      { header: t('feedback.at'), value: (r) => dateTime(r.at) },
      { header: t('feedback.review'), value: (r) => excerpt(r.text) },
      { header: t('feedback.reply'), value: (r) => excerpt(r.reply, 40) },
    ],
  });
}

export async function runReviewsReply(opts: TextOptions, deps: Deps): Promise<void> {
  const client = deps.client();
  const text = await textArg(deps, opts.text, '--text', t('feedback.yourReply'));
  refuseContacts(text, 'reply');
  const review = await withHints(client.reviews.reply(opts.id, { text }), { contacts: contactsHint() });
  if (wantsJson(deps)) printJson(deps.io, review);
  else say(deps.io, t('feedback.repliedToCard', { id: review.id, number: review.number }));
}

// ---------------------------------------------------------------------------------------------
// complaints

export const registerComplaints: Register = (noun, app) => {
  listOptions(noun.command('list').alias('ls').description(t('feedback.listTheComplaintsYou')), t('feedback.complaints')).action(
    app.run(pageFlags, runComplaintsList),
  );
  noun
    .command('file')
    .description(t('feedback.complainAboutTheBuyer'))
    .option('--order <id>', t('feedback.theOrderOrd'))
    .addOption(openOption('--reason <reason>', t('feedback.why'), COMPLAINT_REASONS))
    .option('--text <text>', t('feedback.whatHappenedReadsStdin'))
    .addHelpText('after', t('feedback.exampleSellerComplaintsFile'))
    .action(app.run((o: ComplaintOptions): ComplaintOptions => ({ order: o.order, reason: o.reason, text: o.text }), runComplaintsFile));
};

export async function runComplaintsList(opts: ListOptions, deps: Deps): Promise<void> {
  await printList(deps, deps.client().complaints.list({ limit: opts.limit, cursor: opts.cursor }), {
    all: opts.all,
    what: t('feedback.complaints'),
    empty: t('feedback.noComplaints'),
    columns: [
      { header: t('feedback.id'), value: (c) => c.id },
      { header: t('feedback.order'), value: (c) => c.order },
      { header: t('feedback.reason'), value: (c) => c.reason },
      { header: t('feedback.at'), value: (c) => dateTime(c.at) },
      { header: t('feedback.text'), value: (c) => excerpt(c.text) },
    ],
  });
}

export async function runComplaintsFile(opts: ComplaintOptions, deps: Deps): Promise<void> {
  if (!isInteractive(deps.io)) {
    const missing = (['order', 'reason', 'text'] as const).filter((f) => opts[f] === undefined).map((f) => `--${f}`);
    if (missing.length > 0) throw new UsageError(t('feedback.missingFlags', { missing: missing.join(' ') }), t('feedback.reasonIsOneOf', { reasons: COMPLAINT_REASONS.join(', ') }));
  }
  const order = opts.order ?? (await deps.prompter.text(t('feedback.orderIdOrd'))).trim();
  let reason = opts.reason;
  if (reason === undefined) {
    const answer = (await deps.prompter.text(t('feedback.reason2', { reasons: COMPLAINT_REASONS.join(', ') }))).trim();
    if (!(COMPLAINT_REASONS as readonly string[]).includes(answer)) {
      throw new UsageError(t('feedback.reasonIsNotOne', { answer, reasons: COMPLAINT_REASONS.join(', ') }));
    }
    reason = answer as ComplaintReason;
  }
  const text = await textArg(deps, opts.text, '--text', t('feedback.whatHappened'));
  const complaint = await withHints(deps.client().complaints.create({ order, reason, text }), {
    contacts: contactsHint(),
    not_found: t('feedback.noOrderAmongYours', { order }),
  });
  if (wantsJson(deps)) printJson(deps.io, complaint);
  else say(deps.io, t('feedback.filedAboutTheBuyer', { id: complaint.id, order: complaint.order, reason: complaint.reason }));
}
