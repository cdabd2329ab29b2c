package diagnose

// What the external tests reach of the package's internals.
var SevereLoss = severeLoss

const (
	MaxCount     = maxCount
	MaxPairs     = maxPairs
	MaxBatchSize = maxBatchSize
)
