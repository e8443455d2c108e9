// The types of build.mjs (plain JavaScript, so that bin/cabinet.mjs runs it before anything is built).
export declare const DIST: string;
export declare function namedModules(files?: string[]): Map<string, string>;
export declare function rewriteAddresses(source: string, file: string, named: Map<string, string>): string;
export declare function buildServer(): Promise<void>;
export declare function isStale(): boolean;
export declare function ensureBuilt(): Promise<void>;
export declare function builtModule(href: string): Promise<string>;
