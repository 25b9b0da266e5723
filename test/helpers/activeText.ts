// What "inert" means in tests of untrusted text: no C0/C1 control character left but tab
// and newline, anywhere in a value (keys included).
export const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** Every string inside a value that still holds a control character. */
export function activeStrings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') {
    if (ACTIVE.test(value)) out.push(value);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      activeStrings(k, out);
      activeStrings(v, out);
    }
  }
  return out;
}
