// Package metrics measures a scorer at the ROC operating points the module trains for: the
// ROC curve itself, the area under it (AUC), the standardised partial area up to a
// false-positive rate (partial AUC) and the true-positive rate at a false-positive rate; how
// uncertain those figures are (DeLong's variance of the AUC and of a paired AUC difference, a
// stratified bootstrap interval for any metric); and the operating point to deploy (the
// threshold that keeps a false-positive rate, the false-positive rate that reaches a
// true-positive rate, and the Neyman–Pearson threshold that keeps a false-positive rate on fresh
// negatives with a stated confidence, [ThresholdNP]).
//
// Every function takes scores f_i and labels y_i ∈ {0, 1} (1 = positive) as []float64 and
// follows scikit-learn's definitions (roc_curve, roc_auc_score), so numbers can be compared
// with it directly. With P positives and N negatives, the ROC curve has one point per
// distinct score t, taken in descending order:
//
//	FPR(t) = #{i : y_i = 0, f_i ≥ t} / N
//	TPR(t) = #{i : y_i = 1, f_i ≥ t} / P
//
// preceded by the point (0, 0), and consecutive points are joined by straight lines. Tied
// scores therefore give one diagonal segment, which is what makes a tie between a positive and
// a negative count ½ in the AUC.
//
// For more than two classes or labels, [TaskAUC] (one-vs-rest and one-vs-one, macro, weighted or
// micro) and [ClassAUCs] take the task as a rocops.Task value and row-major n×k scores with
// float64 labels, class indices or an n×k 0/1 indicator, and equal scikit-learn's multi-class and
// multi-label roc_auc_score; the binary task is the one comparison, [AUC].
//
// Scores are sorted once per call, so every function is O(n log n) in time and O(n) in memory,
// except the bootstraps, which call their statistic once per resample. To read several figures of the
// same scores, rank them once with [NewCurve]: its methods return exactly what the functions
// return, and Curve.Bootstrap counts each resample's curve from it in O(n) instead of sorting it
// again. [NewCurveFromCounts] makes the same Curve from counts per distinct score, such as the
// merged counts of a sharded job, in memory that follows the distinct scores, not the rows.
// Invalid input — empty or mismatched slices, NaN or infinite scores, labels other than 0 and 1, a
// single class — gives an error wrapping one of the module's shared errors (rocops.ErrEmpty …
// rocops.ErrNoNegatives), a setting out of range (a false-positive rate, a bootstrap level, an
// average that does not apply) rocops.ErrConfig naming it, and counts beyond an int's range
// rocops.ErrRange; the package's own are [ErrTooFew] (too few rows of a class for DeLong's
// variance) and [ErrStatistic] (a bootstrap statistic that fails without an error of its own).
// Nothing panics.
package metrics
