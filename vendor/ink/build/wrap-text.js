import wrapAnsi from 'wrap-ansi';
import cliTruncate from 'cli-truncate';
// Changed by arbor (vendor/ink/README.md): a bounded Map instead of an object that kept every text ever wrapped
// (each frame of a streaming reply or a live list is a new one).
const cacheLimit = 5000;
const cache = new Map();
const wrapText = (text, maxWidth, wrapType) => {
    const cacheKey = text + String(maxWidth) + String(wrapType);
    const cachedText = cache.get(cacheKey);
    if (cachedText) {
        return cachedText;
    }
    let wrappedText = text;
    if (wrapType === 'wrap') {
        wrappedText = wrapAnsi(text, maxWidth, {
            trim: false,
            hard: true,
        });
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