import sliceAnsi from 'slice-ansi';
import stringWidth from 'string-width';
import { styledCharsFromTokens, styledCharsToString, tokenize, } from '@alcalzone/ansi-tokenize';
// Changed by arbor (vendor/ink/README.md): one set of caches for every frame, so lines that did not change since
// the last frame are not measured again. Each map is emptied when it grows past a bound.
const cacheLimit = 20000;
function remember(map, key, value) {
    if (map.size >= cacheLimit) {
        map.clear();
    }
    map.set(key, value);
}
class OutputCaches {
    widths = new Map();
    blockWidths = new Map();
    styledChars = new Map();
    getStyledChars(line) {
        let cached = this.styledChars.get(line);
        if (cached === undefined) {
            cached = styledCharsFromTokens(tokenize(line));
            remember(this.styledChars, line, cached);
        }
        return cached;
    }
    getStringWidth(text) {
        let cached = this.widths.get(text);
        if (cached === undefined) {
            cached = stringWidth(text);
            remember(this.widths, text, cached);
        }
        return cached;
    }
    getWidestLine(text) {
        let cached = this.blockWidths.get(text);
        if (cached === undefined) {
            let lineWidth = 0;
            for (const line of text.split('\n')) {
                lineWidth = Math.max(lineWidth, this.getStringWidth(line));
            }
            cached = lineWidth;
            remember(this.blockWidths, text, cached);
        }
        return cached;
    }
}
const sharedCaches = new OutputCaches();
export default class Output {
    width;
    height;
    operations = [];
    caches = sharedCaches;
    constructor(options) {
        const { width, height } = options;
        this.width = width;
        this.height = height;
    }
    write(x, y, text, options) {
        const { transformers } = options;
        if (!text) {
            return;
        }
        this.operations.push({
            type: 'write',
            x,
            y,
            text,
            transformers,
        });
    }
    clip(clip) {
        this.operations.push({
            type: 'clip',
            clip,
        });
    }
    unclip() {
        this.operations.push({
            type: 'unclip',
        });
    }
    get() {
        // Changed by arbor (vendor/ink/README.md): rows are composed from their writes
        // as strings, so a frame costs what its changed text costs, not one object per cell.
        // A row whose writes overlap falls back to the cell grid below.
        const rows = [];
        for (let y = 0; y < this.height; y++) {
            rows.push([]);
        }
        const clips = [];
        for (const operation of this.operations) {
            if (operation.type === 'clip') {
                clips.push(operation.clip);
            }
            if (operation.type === 'unclip') {
                clips.pop();
            }
            if (operation.type === 'write') {
                const { text, transformers } = operation;
                let { x, y } = operation;
                let lines = text.split('\n');
                const clip = clips.at(-1);
                if (clip) {
                    const clipHorizontally = typeof clip?.x1 === 'number' && typeof clip?.x2 === 'number';
                    const clipVertically = typeof clip?.y1 === 'number' && typeof clip?.y2 === 'number';
                    if (clipHorizontally) {
                        const width = this.caches.getWidestLine(text);
                        if (x + width < clip.x1 || x > clip.x2) {
                            continue;
                        }
                    }
                    if (clipVertically) {
                        const height = lines.length;
                        if (y + height < clip.y1 || y > clip.y2) {
                            continue;
                        }
                    }
                    if (clipHorizontally) {
                        lines = lines.map(line => {
                            const from = x < clip.x1 ? clip.x1 - x : 0;
                            const width = this.caches.getStringWidth(line);
                            const to = x + width > clip.x2 ? clip.x2 - x : width;
                            return sliceAnsi(line, from, to);
                        });
                        if (x < clip.x1) {
                            x = clip.x1;
                        }
                    }
                    if (clipVertically) {
                        const from = y < clip.y1 ? clip.y1 - y : 0;
                        const height = lines.length;
                        const to = y + height > clip.y2 ? clip.y2 - y : height;
                        lines = lines.slice(from, to);
                        if (y < clip.y1) {
                            y = clip.y1;
                        }
                    }
                }
                for (let index = 0; index < lines.length; index++) {
                    const row = rows[y + index];
                    // Line can be missing if `text` is taller than the output
                    if (!row) {
                        continue;
                    }
                    let line = lines[index];
                    for (const transformer of transformers) {
                        line = transformer(line, index);
                    }
                    row.push({ x, line });
                }
            }
        }
        const generatedOutput = rows
            .map(writes => this.composeRow(writes).trimEnd())
            .join('\n');
        return {
            output: generatedOutput,
            height: rows.length,
        };
    }
    composeRow(writes) {
        let row = '';
        let cursor = 0;
        for (const { x, line } of writes) {
            if (x < cursor) {
                return this.composeRowFromCells(writes);
            }
            if (x > cursor) {
                row += ' '.repeat(x - cursor);
            }
            row += line;
            // Close whatever the write left open, as the cell grid does at the end of a row.
            if (line.includes('\u001B')) {
                row += '\u001B[0m';
            }
            cursor = x + this.caches.getStringWidth(line);
        }
        return row;
    }
    composeRowFromCells(writes) {
        const cells = [];
        for (const { x, line } of writes) {
            let offsetX = x;
            for (const character of this.caches.getStyledChars(line)) {
                for (let fill = cells.length; fill < offsetX; fill++) {
                    cells.push({ type: 'char', value: ' ', fullWidth: false, styles: [] });
                }
                cells[offsetX] = character;
                const characterWidth = Math.max(1, this.caches.getStringWidth(character.value));
                for (let index = 1; index < characterWidth; index++) {
                    cells[offsetX + index] = { type: 'char', value: '', fullWidth: false, styles: character.styles };
                }
                offsetX += characterWidth;
            }
        }
        return styledCharsToString(cells.filter(item => item !== undefined));
    }
}
//# sourceMappingURL=output.js.map