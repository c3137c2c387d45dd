/** Formatting shared by the scenarios' rows (not a scenario: exports no `scenario`). */
export const rate = (x: number): string => `${Math.round(x).toLocaleString('en-US')}/s`;
export const millis = (x: number): string => `${x.toFixed(2)} ms`;
export const seconds = (x: number): string => `${x.toFixed(2)} s`;
