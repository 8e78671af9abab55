/** Bundle entries: output name in dist/bundle/ → compiled module (relative to dist/). */
export declare const BUNDLE_ENTRIES: Readonly<Record<string, string>>;
/** Bundles dist/ into dist/bundle/; throws with esbuild's messages on failure. */
export declare function bundle(root: string): Promise<void>;
