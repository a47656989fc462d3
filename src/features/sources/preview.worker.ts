/// <reference lib="webworker" />
import type { SourcePreviewMessage, SourcePreviewRequest } from './preview-protocol';
import { previewSource } from './read-source';

self.onmessage = async (event: MessageEvent<SourcePreviewRequest>) => {
  const post = (message: SourcePreviewMessage) => self.postMessage(message);
  const { file, ...request } = event.data;
  const { outcome, details } = previewSource({ ...request, bytes: await file.arrayBuffer() }, post);
  post({ type: 'done', outcome, details });
};
