// What the fan-out benchmark's model says and expects, shared by the model server and the
// runtime worker so both sides agree on the script.
export const ROOT_PROMPT = 'Fan out to the benchmark children.';
export const childPrompt = (i) => `Benchmark child ${i}: reply with your number.`;
export const childAnswer = (i) => `child ${i} done`;
export const CHILD_PROMPT_RE = /^Benchmark child (\d+):/;

/** The root's answer to its first request: `children` spawn_subagent calls, call_<i> asking childPrompt(i). */
export function spawnChildren(children) {
  return {
    kind: 'tools',
    calls: Array.from({ length: children }, (_, i) => ({
      id: `call_${i}`,
      name: 'spawn_subagent',
      args: { prompt: childPrompt(i) },
    })),
  };
}

/**
 * Whether every child's answer came back to its own call in the root's second request:
 * how many results there were, how many were wrong or missing, and the first three of those.
 * @param {{ id: string, content: string }[]} results the request's tool results (messages.js toolResults)
 */
export function checkResults(results, children) {
  const wrong = [];
  for (let i = 0; i < children; i++) {
    const r = results.find((x) => x.id === `call_${i}`);
    if (!r || r.content !== childAnswer(i)) wrong.push(`call_${i}: ${r ? JSON.stringify(r.content).slice(0, 120) : 'missing'}`);
  }
  return { results: results.length, wrong: wrong.length, examples: wrong.slice(0, 3) };
}
