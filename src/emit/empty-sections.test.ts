import { describe, expect, it } from 'vitest';
import { withoutEmptySections } from './render-sources.js';

describe('withoutEmptySections', () => {
  it('drops a section whose embeds resolved to nothing, and keeps every other', () => {
    expect(withoutEmptySections('# T\n\nText.\n\n## Images\n\n\n\n## Source\n\n- File\n')).toBe(
      '# T\n\nText.\n\n## Source\n\n- File\n',
    );
    expect(withoutEmptySections('# T\n\n## Links\n\n')).toBe('# T\n\n');
    const full = '# T\n\n## Images\n\n![[a.png]]\n\n## Source\n\n- File\n';
    expect(withoutEmptySections(full)).toBe(full);
  });
});
