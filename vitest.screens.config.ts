import { defineConfig } from 'vitest/config';
import base from './vite.config';

// `npm run screenshots`: the product's own config (console build, Chromium setup) with only the
// screenshot taker included.
export default defineConfig({ ...base, test: { ...base.test, include: ['docs/screens/take.screens.ts'] } });
