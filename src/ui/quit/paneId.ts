/** The quit question's pane id: the Ctrl+C binding quits anyway while it is open. */
export const QUIT_PANE_ID = 'quit-question';
