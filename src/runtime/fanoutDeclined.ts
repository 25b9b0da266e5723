// The failed tool result of a call the fan-out confirmation did not let start (fanout.ts);
// its own file so the loop can use it without importing the broker.
/** What the model reads for a call the operator did not let start. Protocol text. */
export const FANOUT_DECLINED =
  'The operator declined to start this child (fan-out confirmation: more children than [delegation] confirm_fanout_over in one turn). Do not retry it; continue with what you have, or ask the user.';
