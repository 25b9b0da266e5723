// A YAML "billion laughs" front matter: seven levels of nine-fold aliases (9^7 nodes if
// expanded), small on disk. Agent-file loading must refuse it with a located error.
export function yamlAliasBomb(): string {
  const levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
  for (const [prev, next] of [
    ['a', 'b'],
    ['b', 'c'],
    ['c', 'd'],
    ['d', 'e'],
    ['e', 'f'],
    ['f', 'g'],
  ]) {
    levels.push(`${next}: &${next} [${Array(9).fill(`*${prev}`).join(',')}]`);
  }
  return levels.join('\n');
}
