// Types for the tests that reuse the bench's tree scenario (test/e2e/keys.test.ts).
export const AGENTS_BENCH: {
  warmupPrompt: string;
  warmupAnswer: string;
  rootPrompt: string;
  midPrompt(i: number): string;
  midRe: RegExp;
  leafPrompt(m: number, j: number): string;
  leafRe: RegExp;
};

export function treeConfig(url: string, options: { children: number }): string;
