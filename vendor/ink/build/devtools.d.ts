import './devtools-window-polyfill.js';
