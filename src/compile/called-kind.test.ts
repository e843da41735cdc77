import { describe, expect, it } from 'vitest';
import { fakeDictionary } from '../../test/fake-dictionary.js';
import { calledByKind } from './called-kind.js';

const dict = fakeDictionary({
  主干: ['trunk'],
  分支: ['branch'],
  远程: ['remote'],
  仓库: ['repository', 'depot'],
  根: ['root'],
  组件: ['component'],
  檔案: ['file'],
});

/** The pairs calledByKind ties, given each name's concept so far (`groups`: names of one concept together). */
function tied(groups: string[][]): [string, string][] {
  const root = new Map<string, string>();
  for (const g of groups) for (const k of g) root.set(k, g[0]!);
  return calledByKind(groups.flat(), (k) => root.get(k) ?? k, dict);
}

describe('calledByKind: "X <kind>" is X where the texts call X a <kind>', () => {
  it('must: a name whose Chinese name ends in the kind word takes "X branch" and "X 分支"', () => {
    const pairs = tied([['master', '主干分支'], ['master branch'], ['master 分支']]);
    expect(pairs).toEqual([
      ['master', 'master branch'],
      ['master', 'master 分支'],
    ]);
  });

  it('must not: a name whose own names never say it is the kind', () => {
    // A remote branch is no remote; Subversion 分支 are Subversion's branches, not Subversion.
    expect(tied([['remote', '远程仓库'], ['remote branch']])).toEqual([]);
    expect(tied([['subversion', 'svn'], ['subversion 分支']])).toEqual([]);
    // A root component 檔案 is a file: the component's Chinese name ends in 组件, not 檔案.
    expect(tied([['root component', '根组件'], ['root component 檔案']])).toEqual([]);
  });

  it('must not: a kind word alone, a name the knowledge base lacks, or names already one concept', () => {
    // 分支 alone is the kind, not a name of X's that calls it one.
    expect(tied([['master', '分支'], ['master branch']])).toEqual([]);
    expect(tied([['主干分支'], ['master branch']])).toEqual([]);
    expect(tied([['master', '主干分支', 'master branch']])).toEqual([]);
  });
});
