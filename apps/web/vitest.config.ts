import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      environment: 'jsdom',
      setupFiles: ['./src/testing/setup.ts'],
      include: ['src/**/*.test.{ts,tsx}'],
      restoreMocks: true,
      unstubGlobals: true,
      css: false,
      isolate: false,
      // A test's own limit, with room for `npm test`, where this suite runs beside the server suite
      // and the type check on two cores: the profile page's Spanish post-code test takes 0.5 s alone,
      // 2.2 s there, and once went past Vitest's default of 5 s (30 Nov). A test that hangs still fails.
      testTimeout: 15_000,
    },
  }),
);
