// The literal grep uses to skip files: every match must contain it, or there is none.
import { describe, expect, it } from 'vitest';
import { requiredLiterals } from '../../../src/tools/requiredLiteral.js';

describe('requiredLiterals', () => {
  it.each([
    ['needleLiteral', ['needleLiteral']],
    ['function\\s+\\w+Handler\\(', ['function', 'Handler(']],
    ['\\w+Handler\\(x', ['Handler(x']],
    ['colou?r', ['colo']],
    ['ab+cdef', ['cdef']],
    ['x(abc)?yz', []],
    ['foo|barbaz', []],
    ['[abc]+', []],
    ['\\x41BCD', []],
    ['^import .* from', ['import ', ' from']],
    ['a{2,}bcd', ['bcd']],
    ['.*', []],
  ])('%s', (pattern, literals) => {
    expect(requiredLiterals(pattern)).toEqual(literals);
    // Every sample match contains every literal.
    const re = new RegExp(pattern);
    for (const s of ['function  loadHandler(', 'colour', 'color', 'abbbcdef', 'import x from', 'aaabcd', 'needleLiteral', 'myHandler(x']) {
      if (re.test(s)) for (const l of literals) expect(s).toContain(l);
    }
  });
});
