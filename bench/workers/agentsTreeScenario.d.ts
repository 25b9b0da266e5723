// Types for the tests that reuse the bench's tree scenario (test/e2e/keys.test.ts).
export interface AgentsTreeStats {
  open: { root: number; mid: number; leaf: number; warmup: number };
  counts: { root: number; mid: number; leaf: number; other: number };
  lastTreeEndAt: number;
  treeEnded: boolean;
  outcomes: Record<string, number>;
  lastLeafArriveAt: number;
}

export function openAgentsTree(options: { mids: number; leavesPerMid: number; leafChunkMs: number; leafChunks: number }): Promise<{
  url: string;
  stats(): AgentsTreeStats;
  close(): Promise<void>;
}>;
