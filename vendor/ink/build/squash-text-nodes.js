import sanitizeAnsi from './sanitize-ansi.js';
// Changed by arbor (vendor/ink/README.md): the squashed text of a text node is kept on the
// node until the node or anything under it changes (forgetSquashed, called by dom.js and
// the reconciler on every change that can alter it). Layout measured and every frame
// rendered each text node by walking and re-joining its children again, for every row on
// screen whether it changed or not.
const squashedKey = Symbol('arbor.squashed');
const isTextish = (node) => node.nodeName === '#text' ||
    node.nodeName === 'ink-text' ||
    node.nodeName === 'ink-virtual-text';
/** Drops the kept squashed text of `node` and of every text node it is part of, up to the
 * ink-text that owns it: their text depends on this node's. */
export const forgetSquashed = (node) => {
    for (let current = node; current && isTextish(current); current = current.parentNode) {
        current[squashedKey] = undefined;
        if (current.nodeName === 'ink-text') {
            break;
        }
    }
};
// Squashing text nodes allows to combine multiple text nodes into one and write
// to `Output` instance only once. For example, <Text>hello{' '}world</Text>
// is actually 3 text nodes, which would result 3 writes to `Output`.
//
// Also, this is necessary for libraries like ink-link (https://github.com/sindresorhus/ink-link),
// which need to wrap all children at once, instead of wrapping 3 text nodes separately.
const squashTextNodes = (node) => {
    const kept = node[squashedKey];
    if (kept !== undefined) {
        return kept;
    }
    let text = '';
    for (let index = 0; index < node.childNodes.length; index++) {
        const childNode = node.childNodes[index];
        if (childNode === undefined) {
            continue;
        }
        let nodeText = '';
        if (childNode.nodeName === '#text') {
            nodeText = childNode.nodeValue;
        }
        else {
            if (childNode.nodeName === 'ink-text' ||
                childNode.nodeName === 'ink-virtual-text') {
                nodeText = squashTextNodes(childNode);
            }
            // Since these text nodes are being concatenated, `Output` instance won't be able to
            // apply children transform, so we have to do it manually here for each text node
            if (nodeText.length > 0 &&
                typeof childNode.internal_transform === 'function') {
                nodeText = childNode.internal_transform(nodeText, index);
            }
        }
        text += nodeText;
    }
    const squashed = sanitizeAnsi(text);
    node[squashedKey] = squashed;
    return squashed;
};
export default squashTextNodes;
//# sourceMappingURL=squash-text-nodes.js.map
