// `arbor -p --resume "prompt"` (the README's form) puts a flag between -p and its prompt.
// node:util parseArgs refuses that as ambiguous, so a flag that takes no value and sits
// right after -p/--print is moved in front of it: `--resume -p "prompt"` means the same.

/** Flags that take no value (a prompt after them cannot be theirs, except --resume's id). */
const FLAGS = new Set(['--resume', '-r', '--continue', '-c', '--yes', '-y', '--raw', '--wait-on-quota']);

export function printPromptFirst(argv: readonly string[]): string[] {
  const out = [...argv];
  for (let i = 0; i < out.length - 1; i++) {
    if (out[i] !== '-p' && out[i] !== '--print') continue;
    let j = i + 1;
    while (j < out.length && FLAGS.has(out[j])) j++;
    if (j === i + 1 || j >= out.length) continue;
    // out[i+1..j-1] are flags, out[j] is the prompt: flags first, then -p and its prompt.
    const flags = out.slice(i + 1, j);
    out.splice(i, j - i, ...flags, out[i]);
    i += flags.length + 1;
  }
  return out;
}

/** parseArgs names every missing value `<value>`; -p's is a prompt, as --help says. */
export function nameMissingValue(message: string): string {
  return message.replace(/('-p, --print) <value>'/, "$1 <prompt>'");
}
