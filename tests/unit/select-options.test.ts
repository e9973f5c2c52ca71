// A select's items are never empty (spec §9): an option without a value, or a repeated one, is not listed.
import { expect, it } from 'vitest';
import { selectOptions } from '../../src/components/ui/select.tsx';

it('lists each non-empty value once, in order', () => {
  expect(
    selectOptions([
      { value: '', label: 'Nothing' },
      { value: 'b', label: 'B' },
      { value: 'a', label: 'A' },
      { value: 'b', label: 'B again' },
    ]),
  ).toEqual([
    { value: 'b', label: 'B' },
    { value: 'a', label: 'A' },
  ]);
});
