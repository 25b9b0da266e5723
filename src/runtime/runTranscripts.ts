// Each child run's own transcript, by run id, as an immutable value with structural
// sharing (model/bucketedMap.ts). A streaming child replaces its transcript many times a
// second; copying one record of every run for each of those allocated ~100 KB per update
// once a tree had 200 runs. Here an update copies one small bucket and the bucket index.
import { BucketedMap } from '../model/bucketedMap.js';
import type { RunTranscripts as RunTranscriptTable } from '../model/state.js';
import type { TranscriptItem } from '../model/transcript.js';

export type RunTranscripts = RunTranscriptTable;

export const RunTranscripts = { empty: BucketedMap.empty<readonly TranscriptItem[]>() as RunTranscripts };
