package metrics

// What the external tests reach of the package's internals: the bootstrap of a statistic of
// (scores, labels) slices, the reference of BootstrapPaired's.
var Bootstrap = bootstrap
