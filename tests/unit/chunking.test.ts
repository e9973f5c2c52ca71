// Knowledge is split into passages that follow the document: a paragraph each, under its heading, so an answer
// quotes one section and not its neighbours; only a long paragraph is windowed, with overlap.
import { describe, expect, it } from 'vitest';
import { CHUNK_SIZE, splitIntoChunks } from '../../server/agents/chunking.ts';

describe('knowledge passages', () => {
  it('gives each paragraph its own passage with the heading of its section in front', () => {
    const text = [
      '# Travel policy\nTrain tickets are reimbursed in second class.',
      'Hotels up to 120 EUR a night.',
      'Holidays',
      'Everyone gets twenty-five days a year.',
    ].join('\n\n');
    expect(splitIntoChunks(text)).toEqual([
      'Travel policy\nTrain tickets are reimbursed in second class.',
      'Travel policy\nHotels up to 120 EUR a night.',
      'Holidays\nEveryone gets twenty-five days a year.',
    ]);
  });

  it('keeps a lone line as a passage rather than losing it', () => {
    expect(splitIntoChunks('The office opens at eight')).toEqual(['The office opens at eight']);
  });

  it('windows a long paragraph, each window within the size and overlapping the next', () => {
    const sentences = Array.from({ length: 60 }, (_, i) => `Sentence number ${i} says something.`);
    const chunks = splitIntoChunks(`Rules\n\n${sentences.join(' ')}`);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(CHUNK_SIZE);
      expect(chunk.startsWith('Rules\n')).toBe(true);
    }
    const [first, second] = chunks;
    const lastOfFirst = first?.split('. ').at(-2) ?? '';
    expect(second).toContain(lastOfFirst);
  });
});
