// Package experiment is what the module's comparisons share: preparing a seed's data, the
// search that trains every recipe at every learning rate and keeps the best validation epoch,
// the same over seeds, measuring the kept model on the test part, once, into every figure the
// reports print, and summarising the runs over the seeds.
//
// A comparison of losses is only fair when every loss is tuned the same way (untuned
// comparisons mislead): each candidate of a [Search] starts from the same initial weights,
// sees the same batches and is judged by the same validation metric, and the candidate whose
// best epoch scores highest is kept. [Grid] repeats searches over seeds, each seed with its own
// [Split] ([NewSplit]), initialisation and batches, and [Progress] tells a user how far it has
// come. [Measure] scores a kept model on the test part and reads every figure off one ranked
// curve (metrics.Curve): AUC with DeLong's interval, partial AUC and TPR at a false-positive
// rate α with bootstrap intervals, FPR at a true-positive rate, and the threshold a deployment
// would use, chosen on the validation part: the lowest that keeps α there, or with a
// confidence 1 − δ the Neyman–Pearson umbrella threshold, whose false-positive rate on fresh
// negatives stays at or below α with probability 1 − δ, its test rates then given with
// Clopper–Pearson intervals.
//
// [Compare] runs a grid and measures each search on each seed into a [Result], comparing it
// with the first search on the same test rows (DeLong's paired AUC test and a paired bootstrap
// of the other figures). A result says how many of its training's phases the kept weights went
// through, so that a recipe that fell back to its first phase is reported as such.
// [Summarise] turns the results of every seed into a [Summary]: means, standard deviations and
// paired differences from the first run. On multi-class and multi-label data (the data's
// Classes or Labels set) the split is stratified by class (by label pattern for multi-label
// data), and Compare reads the figures one-vs-rest per class — on the softmax probabilities of
// a softmax-trained model — with the macro one-vs-rest and one-vs-one AUC, which Summarise
// averages and compares over the seeds like the binary figures.
//
// A [Log] keeps an experiment's runs as JSON lines, each appended as its run finishes, so that
// an interrupted experiment resumes where it stopped. [Target] is the figure a run's loss
// optimises; train.Names reads the run names.
//
// cmd/roctrain, cmd/corrective and cmd/results are built on it; they keep only their flags,
// tables and plots.
package experiment
