import { MetricsService, type MetricsSources } from './metrics';

/**
 * Prometheus metrics of the local environment, read from `sources` at each scrape. (Each
 * environment's stats history is kept by its apps runtime: see apps/apps-runtime.ts.)
 */
export function createMetrics(sources: () => MetricsSources): MetricsService {
  return new MetricsService(sources);
}
