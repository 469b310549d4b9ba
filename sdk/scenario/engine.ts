/** The runner's parts that need zod (the format's schemas) and yaml, loaded together by the entry once. */
export { checkScenario } from './check.ts';
export { runChecked } from './run.ts';
export { catalogIssues, readCatalog } from './catalog.ts';
