// The matcher's flat lists of counterparts by amount and key (decision 0182).

import { describe, expect, it } from 'vitest';
import { DayLists, lowerBound } from '../../../domain/reconcile/day-lists';

const read = (lists: DayLists, list: number) =>
  Array.from({ length: lists.length(list) }, (_, k) => [
    lists.days[lists.starts[list]! + k],
    lists.items[lists.starts[list]! + k],
  ]);

describe('DayLists', () => {
  it('keeps each list in the order added, whatever the lists between', () => {
    const lists = new DayLists();
    // Added in (day, index) order, as the pools are read: lists interleaved.
    const added: [number, number, number, number][] = [
      [2500, 7, 20, 3],
      [2500, 9, 20, 3],
      [2500, 7, 20, 5],
      [3000, 7, 21, 1],
      [2500, 7, 22, 0],
      [2500, 9, 23, 8],
    ];
    for (const [amount, key, day, item] of added) lists.add(amount, key, day, item);
    lists.close();
    expect(read(lists, lists.find(2500, 7))).toEqual([
      [20, 3],
      [20, 5],
      [22, 0],
    ]);
    expect(read(lists, lists.find(2500, 9))).toEqual([
      [20, 3],
      [23, 8],
    ]);
    expect(read(lists, lists.find(3000, 7))).toEqual([[21, 1]]);
    expect(lists.find(3000, 9)).toBe(-1);
    expect(lists.find(4000, 7)).toBe(-1);
    expect(lists.hasAmount(3000)).toBe(true);
    expect(lists.hasAmount(4000)).toBe(false);
  });

  it('grows past its first room', () => {
    const lists = new DayLists();
    for (let k = 0; k < 5000; k++) lists.add(k % 3, 1, Math.floor(k / 3), k);
    lists.close();
    const second = read(lists, lists.find(1, 1));
    expect(second).toHaveLength(1667);
    expect(second[1666]).toEqual([1666, 4999]);
  });

  it('finds the first day at or after a day within a range', () => {
    const days = [1, 3, 3, 7, 2, 2, 9];
    expect(lowerBound(days, 3, 0, 4)).toBe(1);
    expect(lowerBound(days, 4, 0, 4)).toBe(3);
    expect(lowerBound(days, 8, 0, 4)).toBe(4);
    expect(lowerBound(days, 2, 4)).toBe(4);
    expect(lowerBound(days, 3, 4)).toBe(6);
  });
});
