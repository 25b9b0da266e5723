// What a picker lists: its rows, the filter typed over them, and the control characters
// kept out of both.

/** `text` with every C0/C1 control character (ESC included) replaced. */
export function replaceControls(text: string, replacement: string): string {
  let out = '';
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    out += c < 0x20 || (c >= 0x7f && c <= 0x9f) ? replacement : ch;
  }
  return out;
}

export interface PickerRow {
  id: string;
  /** The row as shown (one line; cut to the width). */
  label: string;
  /** What the filter matches against (defaults to the label). */
  search?: string;
  /** Marked (e.g. the current session or model). */
  current?: boolean;
  dim?: boolean;
  /** Shown whole after the label (a session's cost): the label is cut before it instead. */
  suffix?: string;
}

export function filterRows(rows: PickerRow[], filter: string): PickerRow[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return rows;
  return rows.filter((r) => {
    const hay = (r.search ?? r.label).toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}
