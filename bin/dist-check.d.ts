/** The installation's folder (package.json, src/, dist/). */
export declare const ROOT: string;
/** Where `npm run build` writes its stamp. */
export declare const STAMP: string;
/** The sources dist/ was compiled from (relative paths, sorted). */
export declare function compiledSources(root?: string): string[];
/** One hash over the files' paths and contents. */
export declare function sourcesHash(files: readonly string[], root?: string): string;
/** Writes the stamp of a build that started at `startedAt` (ms since the epoch). */
export declare function writeStamp(startedAt: number, root?: string): void;
/** Why dist/ cannot stand in for the sources, or undefined when it is current. */
export declare function distProblem(root?: string): string | undefined;
