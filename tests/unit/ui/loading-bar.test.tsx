// @vitest-environment jsdom
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { request } from '../../../src/api/http';
import { LOADING_THROTTLE_MS, LoadingBar } from '../../../src/app/LoadingBar';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('LoadingBar', () => {
  it('appears only once a request outlives the throttle, and leaves when it ends', async () => {
    vi.useFakeTimers();
    let answer: (r: Response) => void = () => {};
    vi.stubGlobal('fetch', () => new Promise<Response>((resolve) => (answer = resolve)));
    const { container } = render(<LoadingBar />);
    let pending!: Promise<unknown>;
    act(() => {
      pending = request('health');
    });
    act(() => vi.advanceTimersByTime(LOADING_THROTTLE_MS - 1));
    expect(container.querySelector('.loading-bar')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(container.querySelector('.loading-bar-running')).not.toBeNull();
    await act(async () => {
      answer(new Response('{"status":"ok"}', { status: 200 }));
      await pending;
    });
    expect(container.querySelector('.loading-bar-finishing')).not.toBeNull();
    act(() => vi.advanceTimersByTime(1000));
    expect(container.querySelector('.loading-bar')).toBeNull();
  });

  it('never shows for a request faster than the throttle', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('fetch', async () => new Response('{}', { status: 200 }));
    const { container } = render(<LoadingBar />);
    await act(async () => {
      await request('health');
    });
    act(() => vi.advanceTimersByTime(LOADING_THROTTLE_MS * 5));
    expect(container.querySelector('.loading-bar')).toBeNull();
  });
});
