// Frames that answer a key press skip the frame-rate throttle. Ink draws at most MAX_FPS
// frames a second, so a key pressed just after a frame would wait up to a whole slot
// (50 ms) to show; while a tree of children keeps the screen busy that is every key. React
// may commit the key's state change after the handler returns, so Ink (patched, see
// patches/) is told to draw whichever commit comes next at once.

let drawNextCommit: (() => void) | undefined;

/** renderApp hands over Ink's "draw the next commit now"; undefined once unmounted. */
export function setKeyFrameDrawer(draw: (() => void) | undefined): void {
  drawNextCommit = draw;
}

/** Called for every key press. */
export function drawKeyFrame(): void {
  drawNextCommit?.();
}
