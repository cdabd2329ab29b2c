// Package rocbeam builds Apache Beam pipelines that score rows with a deployed model and
// evaluate scores exactly, over more rows than one machine holds: the pipelines of the
// command rocbeam.
//
// [Evaluate] reads CSV shards of scores and labels; [Score] reads shards of raw feature
// rows, scores them with a model of package deploy and writes the scored shards. Both end in
// metrics.json (a [Report]): the AUC, DeLong's variance and interval, the TPR and the
// McClish-standardised partial AUC at a false-positive rate α, the deployed operating point
// and the ROC curve, each equal to what package metrics computes in one process on the same
// rows.
//
// Every one of those figures depends on the rows only through the numbers of positives and
// negatives at each distinct score, and such counts add up across shards. So each worker
// counts the rows it reads in a map from score to counts; when its bundle of work ends it
// emits the map as sorted blocks, one per bucket — the top 16 bits of the score's order key
// (the float's bits made to sort as the scores do), a few hundred buckets for probabilities
// in (0, 1) — and a combine merges the blocks of each bucket. One last step hands the merged
// counts to [metrics.NewCurveFromCounts], whose one sorted pass gives the figures, and writes
// metrics.json; a bad row, shards with different columns or no rows fail the pipeline before
// it is written. Memory follows the number of distinct scores, not of rows.
//
// The pipelines run on any Beam runner: the command defaults to the embedded prism runner,
// and its tests run on it (ptest.Main).
package rocbeam
