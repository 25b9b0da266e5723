// Byte sizes for messages the user reads ("200 B", "2.7 KB", "32 KB", "100 MB"): the one
// formatter for every size shown. A leaf, like untrusted.ts, so the runtime's notices, MCP
// result notes and the UI's lines say sizes the same way. Units step by 1024; one decimal
// below 10 of a unit, whole numbers above (a person reads "100 MB", not "102539.1 KiB").

const UNITS = ['KB', 'MB', 'GB', 'TB'];

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${Math.max(0, Math.round(Number.isFinite(bytes) ? bytes : 0))} B`;
  let value = bytes / 1024;
  let unit = 0;
  // Rounded as shown: 1023.7 KB reads "1.0 MB", not "1024 KB".
  while (unit < UNITS.length - 1 && (value >= 10 ? Math.round(value) : Number(value.toFixed(1))) >= 1024) {
    value /= 1024;
    unit++;
  }
  return `${value < 9.95 ? value.toFixed(1) : Math.round(value)} ${UNITS[unit]}`;
}
