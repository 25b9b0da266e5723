import { type DOMNode } from './dom.js';
import type Output from './output.js';
declare const renderBackground: (x: number, y: number, node: DOMNode, output: Output) => void;
export default renderBackground;
