import widestLine from 'widest-line';
// Changed by arbor (vendor/ink/README.md): bounded, so a long session (every frame of a streaming reply is a new
// text) does not keep every text ever measured.
const cacheLimit = 5000;
const cache = new Map();
const measureText = (text) => {
    if (text.length === 0) {
        return {
            width: 0,
            height: 0,
        };
    }
    const cachedDimensions = cache.get(text);
    if (cachedDimensions) {
        return cachedDimensions;
    }
    const width = widestLine(text);
    const height = text.split('\n').length;
    const dimensions = { width, height };
    if (cache.size >= cacheLimit) {
        cache.clear();
    }
    cache.set(text, dimensions);
    return dimensions;
};
export default measureText;
//# sourceMappingURL=measure-text.js.map