package rocops

import "errors"

// The module's one error vocabulary, declared here once. Every package of the module that
// validates a batch of scores and labels (the ops, metrics, diagnose, data, train) returns these
// values wrapped with details, in messages that start with the package's name
// ("pairwise: scores and labels differ in length: 3 scores, 4 labels"), so
//
//	errors.Is(err, rocops.ErrLength)
//
// holds for a length error from any of them. ErrNoPositives and ErrNoNegatives also match
// ErrOneClass.
var (
	// ErrEmpty reports a batch without rows.
	ErrEmpty = errors.New("no scores")
	// ErrLength reports scores and labels whose lengths do not fit each other or the task: n
	// scores and n labels for a binary task, n·k scores and n class indices for k classes, n·k
	// of each for k labels.
	ErrLength = errors.New("scores and labels differ in length")
	// ErrNonFinite reports a NaN or infinite score.
	ErrNonFinite = errors.New("score is NaN or infinite")
	// ErrLabel reports a label that is not 0 or 1 (binary and multi-label tasks) or not a class
	// index 0…k−1 (multi-class tasks).
	ErrLabel = errors.New("label is not 0 or 1")
	// ErrOneClass reports a batch, or a class or label column of one, in which one class is
	// missing.
	ErrOneClass = errors.New("batch has only one class")
	// ErrNoPositives reports a batch without positives; it matches ErrOneClass.
	ErrNoPositives = error(oneClass("batch has no positives"))
	// ErrNoNegatives reports a batch without negatives; it matches ErrOneClass.
	ErrNoNegatives = error(oneClass("batch has no negatives"))
	// ErrNode reports a graph node that cannot feed a loss: nil, from another graph, of a dtype
	// other than float32 or float64 or not matching the other input's, of a shape that is not
	// the task's, or of unknown or zero size.
	ErrNode = errors.New("bad input node")
	// ErrRange reports a value beyond what its float type holds: a feature, score, loss or
	// gradient that overflows float64, or float32 in a float32 model or graph.
	ErrRange = errors.New("value out of range")
	// ErrConfig reports a setting outside its domain, such as α outside (0, 1), a negative
	// margin or an unknown surrogate. The message names the setting and the value.
	ErrConfig = errors.New("invalid setting")
)

// oneClass is the type of ErrNoPositives and ErrNoNegatives: each is its own value and also
// matches ErrOneClass.
type oneClass string

func (e oneClass) Error() string        { return string(e) }
func (e oneClass) Is(target error) bool { return target == ErrOneClass }
