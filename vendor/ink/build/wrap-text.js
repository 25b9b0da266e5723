import wrapAnsi from 'wrap-ansi';
import cliTruncate from 'cli-truncate';
// Changed by arbor (vendor/ink/README.md): a bounded Map instead of an object that kept every text ever wrapped
// (each frame of a streaming reply or a live list is a new one).
const cacheLimit = 5000;
// Changed by arbor (vendor/ink/README.md): wrap-ansi with `trim: false` moves the space a row
// was broken at to the start of the next row when the row is exactly full ("OpenAI,\n Anthropic"),
// so wrapped prose got one extra leading space. That one space is dropped from rows that
// continue a line (never from a line's own indentation); a row left empty by it goes.
const ANSI_PREFIX = /^((?:\u001B\[[0-9;]*m)*) /;
const BREAK_SPACE = /\n(?:\u001B\[[0-9;]*m)* /;
// eslint-disable-next-line no-control-regex
const ANSI = /\u001B\[[0-9;]*m/g;
const dropBreakSpaces = (original, wrapped) => {
    if (!BREAK_SPACE.test(wrapped)) {
        return wrapped;
    }
    const lines = original.replace(ANSI, '').split('\n').map(line => line.length);
    const rows = wrapped.split('\n');
    const out = [];
    let line = 0;
    let used = 0;
    for (const row of rows) {
        const plain = row.replace(ANSI, '').length;
        const continues = used > 0;
        used += plain;
        if (line < lines.length && used >= lines[line]) {
            line++;
            used = 0;
        }
        if (!continues || !ANSI_PREFIX.test(row)) {
            out.push(row);
            continue;
        }
        const trimmed = row.replace(ANSI_PREFIX, '$1');
        if (trimmed.replace(ANSI, '') === '' && out.length > 0) {
            out[out.length - 1] += trimmed;
            continue;
        }
        out.push(trimmed);
    }
    return out.join('\n');
};
const cache = new Map();
const wrapText = (text, maxWidth, wrapType) => {
    const cacheKey = text + String(maxWidth) + String(wrapType);
    const cachedText = cache.get(cacheKey);
    if (cachedText) {
        return cachedText;
    }
    let wrappedText = text;
    if (wrapType === 'wrap') {
        wrappedText = dropBreakSpaces(text, wrapAnsi(text, maxWidth, {
            trim: false,
            hard: true,
        }));
    }
    if (wrapType.startsWith('truncate')) {
        let position = 'end';
        if (wrapType === 'truncate-middle') {
            position = 'middle';
        }
        if (wrapType === 'truncate-start') {
            position = 'start';
        }
        wrappedText = cliTruncate(text, maxWidth, { position });
    }
    if (cache.size >= cacheLimit) {
        cache.clear();
    }
    cache.set(cacheKey, wrappedText);
    return wrappedText;
};
export default wrapText;
//# sourceMappingURL=wrap-text.js.map