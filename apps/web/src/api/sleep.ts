/** How a run of requests waits: the real timer in the app, one that returns at once (and records the wait) in tests. */
export type Sleep = (milliseconds: number) => Promise<void>;

export const realSleep: Sleep = (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds));
