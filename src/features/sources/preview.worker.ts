/// <reference lib="webworker" />
import type { SourcePreviewMessage, SourcePreviewRequest } from './preview-protocol';
import { previewSource } from './read-source';

self.onmessage = (event: MessageEvent<SourcePreviewRequest>) => {
  const post = (message: SourcePreviewMessage) => self.postMessage(message);
  const { outcome, details } = previewSource(event.data, post);
  post({ type: 'done', outcome, details });
};
