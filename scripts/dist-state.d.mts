export declare const packageRoot: string;
export declare const distDir: string;
export declare const distEntry: string;
export declare const manifestFile: string;
export declare function distState(): 'fresh' | 'missing' | 'stale';
