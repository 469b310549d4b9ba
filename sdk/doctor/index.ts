/**
 * `service-seller/doctor`: compare what a service really answers with the contract this package
 * was built on. `runDoctor(client)` sweeps the account read-only (what `seller doctor` prints);
 * `compareAnswer(op, status, body)` compares one answer you already have.
 *
 * @example
 * import { SellerClient } from 'service-seller';
 * import { runDoctor } from 'service-seller/doctor';
 * const report = await runDoctor(new SellerClient());
 * if (report.differences.length > 0) console.log(JSON.stringify(report, null, 2));
 */
export { runDoctor, type DoctorOptions, type DoctorReport, type Difference, type OperationOutcome, type SkipReason } from './sweep.ts';
export { compareAnswer, strictAnswerSchema, safeExample, type Finding, type FindingKind } from './compare.ts';
