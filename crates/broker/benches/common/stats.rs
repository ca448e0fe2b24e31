//! Percentiles of latency samples, shared by the benches.

use std::time::Duration;

pub fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

/// (p50, p95) of the samples, which it sorts.
pub fn percentiles(samples: &mut [f64]) -> (f64, f64) {
    samples.sort_by(f64::total_cmp);
    (quantile(samples, 0.50), quantile(samples, 0.95))
}

/// The `q` quantile of sorted samples (nearest rank).
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    sorted[((sorted.len() as f64 * q) as usize).min(sorted.len() - 1)]
}
