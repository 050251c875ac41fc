import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The server serves web/dist; in `vite dev` the API stays on the real server.
export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 900 },
  server: { proxy: { '/api': { target: 'http://127.0.0.1:8000', changeOrigin: false } } },
});
