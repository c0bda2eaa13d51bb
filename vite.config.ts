import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  root: 'app',
  plugins: [react()],
  build: { outDir: '../dist/app', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  server: {
    proxy: { '/api': 'http://localhost:3000', '/_chat_ws': { target: 'ws://localhost:3000', ws: true } },
  },
});
