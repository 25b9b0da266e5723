// What the fan-out benchmark's model says and expects, shared by the model server and the
// runtime worker so both sides agree on the script.
export const ROOT_PROMPT = 'Fan out to the benchmark children.';
export const childPrompt = (i) => `Benchmark child ${i}: reply with your number.`;
export const childAnswer = (i) => `child ${i} done`;
export const CHILD_PROMPT_RE = /^Benchmark child (\d+):/;
