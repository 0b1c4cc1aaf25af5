export function webBuildIsStale(): boolean;
export function buildWebApp(options?: { force?: boolean }): Promise<boolean>;
