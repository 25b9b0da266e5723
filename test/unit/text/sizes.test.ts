// The one size formatter: the unit a person reads.
import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../../src/text/sizes.js';

describe('formatBytes', () => {
  it('reads like a person writes it', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(200)).toBe('200 B');
    expect(formatBytes(2768)).toBe('2.7 KB');
    expect(formatBytes(32 * 1024)).toBe('32 KB');
    expect(formatBytes(300 * 1024)).toBe('300 KB');
    expect(formatBytes(1024 * 1024 - 10)).toBe('1.0 MB');
    expect(formatBytes(50 * 1024 * 1024)).toBe('50 MB');
    expect(formatBytes(105_000_000)).toBe('100 MB');
    expect(formatBytes(5 * 1024 ** 3)).toBe('5.0 GB');
    expect(formatBytes(Number.NaN)).toBe('0 B');
  });
});
