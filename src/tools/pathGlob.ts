// A small glob matcher (Node 20 has no path.matchesGlob). Patterns are '/'-separated
// segments; '**' spans any number of segments, '*' and '?' stay within one, and '[abc]',
// '[!abc]' and '{a,b}' work as in the shell. '*' also matches dotfiles: the model should
// see everything it may read.
export interface GlobMatcher {
  matches(relPath: string): boolean;
  /** Whether some path below `relDir` could still match, so the walk may prune. */
  couldMatchBelow(relDir: string): boolean;
  /** Whether a literal segment of the pattern contains `name`. */
  mentions(name: string): boolean;
}

const GLOBSTAR = Symbol('globstar');
type Segment = RegExp | typeof GLOBSTAR;

function segmentRegExp(seg: string): RegExp {
  let re = '';
  let braces = 0;
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i];
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const close = seg.indexOf(']', i + 2);
      if (close === -1) re += '\\[';
      else {
        let body = seg.slice(i + 1, close);
        const negate = body.startsWith('!') || body.startsWith('^');
        if (negate) body = body.slice(1);
        re += `[${negate ? '^' : ''}${body.replace(/[\\\]]/g, '\\$&')}]`;
        i = close;
      }
    } else if (c === '{' && seg.indexOf('}', i) !== -1) {
      braces++;
      re += '(?:';
    } else if (c === ',' && braces > 0) re += '|';
    else if (c === '}' && braces > 0) {
      braces--;
      re += ')';
    } else re += c.replace(/[.+^$()|{}\\[\]\\]/g, '\\$&');
  }
  re += ')'.repeat(braces);
  return new RegExp(`^${re}$`);
}

function matchSegments(pattern: Segment[], pi: number, path: string[], si: number, partial: boolean): boolean {
  if (si === path.length) {
    // The path ran out: a full match needs only '**' left; a prefix match needs anything left.
    return partial ? pi < pattern.length : pattern.slice(pi).every((p) => p === GLOBSTAR);
  }
  if (pi === pattern.length) return false;
  const seg = pattern[pi];
  if (seg === GLOBSTAR) {
    return matchSegments(pattern, pi + 1, path, si, partial) || matchSegments(pattern, pi, path, si + 1, partial);
  }
  return seg.test(path[si]) && matchSegments(pattern, pi + 1, path, si + 1, partial);
}

export function compileGlob(pattern: string): GlobMatcher {
  const raw = pattern.split('/').filter((s) => s !== '' && s !== '.');
  const segments: Segment[] = raw.map((s) => (s === '**' ? GLOBSTAR : segmentRegExp(s)));
  return {
    matches: (relPath) => matchSegments(segments, 0, relPath.split('/'), 0, false),
    couldMatchBelow: (relDir) => matchSegments(segments, 0, relDir.split('/'), 0, true),
    mentions: (name) => raw.some((s) => s !== '**' && s.includes(name)),
  };
}
