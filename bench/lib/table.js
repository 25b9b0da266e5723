// Plain-text table for the terminal: one row per metric, with its target and pass/fail.

function formatValue(value) {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return String(value);
    if (Number.isInteger(value)) return String(value);
    return Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 10 ? value.toFixed(1) : value.toFixed(2);
  }
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

export function formatTable(rows) {
  const header = ['benchmark', 'metric', 'value', 'unit', 'target', 'result'];
  const body = rows.map((r) => [
    r.bench,
    r.metric,
    formatValue(r.value),
    r.unit ?? '',
    r.target === undefined ? '' : String(r.target),
    r.pass === undefined ? '' : r.pass ? 'PASS' : 'FAIL',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells) =>
    cells
      .map((c, i) => (i === 2 ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
