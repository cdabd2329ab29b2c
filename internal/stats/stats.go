// Package stats holds the statistical constants the module's public packages share.
package stats

// Z975 is Φ⁻¹(0.975) ≈ 1.95996, the standard normal quantile of a two-sided 95% normal
// interval estimate ± Z975·√variance.
const Z975 = 1.959963984540054

// MaxBootstrapReps is the most resamples a bootstrap of package metrics takes: it keeps one
// value per resample, and a thousand times the thousand or so a stable 95% interval needs is
// plenty.
const MaxBootstrapReps = 1_000_000
