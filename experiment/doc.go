// Package experiment is what the module's comparisons share: preparing a seed's data, the
// search that trains every recipe at every learning rate and keeps the best validation epoch,
// the same over seeds, and measuring the kept model on the test part, once, into every figure
// the reports print.
//
// A comparison of losses is only fair when every loss is tuned the same way (untuned
// comparisons mislead): each candidate of a [Search] starts from the same initial weights,
// sees the same batches and is judged by the same validation metric, and the candidate whose
// best epoch scores highest is kept. [Grid] repeats searches over seeds, each seed with its own
// [Split], initialisation and batches. [Measure] scores the kept model on the test part and
// reads every figure off one ranked curve (metrics.Curve): AUC with DeLong's interval, partial
// AUC and TPR at a false-positive rate α with bootstrap intervals, FPR at a true-positive rate,
// and the threshold a deployment would use, chosen on the validation part. [NewResult] turns
// the kept candidate and its measurement into a run's result, [Summarise] the results of
// every seed into means, standard deviations and paired differences from the first run.
// [Compare] runs a grid and measures each search on each seed, comparing it with the first on
// the same test rows ([CompareWithFirst]: DeLong's paired AUC test and a paired bootstrap of
// the other figures), which tables list from the figure the loss targets ([Target]). A result
// says how many of its training's phases the kept weights went through ([PhasesOf]), so that a
// recipe that fell back to its first phase is reported as such; [Merge] and [MergeDiagnoses]
// group runs that are one model bit for bit, for plots that draw them once. [ParseRun] and
// [RunsUsage] read and list run names, [ForData] fits a run's recipes to multi-class or
// multi-label data, [RunLabel] is a run's one name, and [Progress] and
// [LoadProgress] tell a user how far a grid and a data file's loading have come.
//
// On multi-class and multi-label data (the data's Classes or Labels set) a [Split] is
// stratified by class (by set of labels for multi-label data), [MeasureClasses] reads the
// figures one-vs-rest per class — on the softmax probabilities of a softmax-trained model
// ([Probabilities]) — with the macro one-vs-rest and one-vs-one AUC, [NewClassResult] makes
// them a result, [Summarise] averages and compares them over the seeds like the binary
// figures, [ClassTables] prints them, and [MacroROC], [PlottedClasses] and [ClassView] give a
// plot its per-class and macro-average curves.
//
// cmd/roctrain, cmd/corrective and the results harness of package train (build tag results)
// are built on it; they keep only their flags, tables and plots.
package experiment
