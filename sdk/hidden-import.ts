/**
 * `import(specifier)` that bundlers leave alone (a parameter, not a literal): for a module only
 * Node loads (`node:fs` of the file watermark store) or one that loads an optional peer (strict
 * mode's zod), so that an application bundles the SDK for a browser without either.
 */
export function hiddenImport<T>(specifier: string): Promise<T> {
  return import(/* webpackIgnore: true */ /* @vite-ignore */ specifier) as Promise<T>;
}
