// The count the operator is choosing for each pending fan-out (how many children start).
// Kept outside React so the key binding (which runs at the moment of the key, before the
// next render) and the prompt read the same value.
type Listener = () => void;

const counts = new Map<string, number>();
const listeners = new Set<Listener>();

export function fanoutCount(id: string, total: number): number {
  return counts.get(id) ?? total;
}

export function setFanoutCount(id: string, total: number, count: number): void {
  const next = Math.max(0, Math.min(total, Math.floor(count)));
  if (counts.get(id) === next) return;
  counts.set(id, next);
  for (const l of [...listeners]) l();
}

/** The fan-out was answered: its count is forgotten. */
export function forgetFanoutCount(id: string): void {
  counts.delete(id);
}

export function subscribeFanoutCounts(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
