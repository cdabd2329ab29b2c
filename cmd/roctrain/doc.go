// Command roctrain trains scorers with several losses on one data set and compares them where
// they will be deployed: at a false-positive rate α (or a true-positive rate, with -recall).
// Every run is tuned alike by package experiment; the command prints the test figures with
// their intervals and paired comparisons (or one JSON object with -json), draws the ROC
// curves, and with -out saves each model and its deployed threshold through package deploy,
// which -predict applies to new rows. The deployed threshold is the lowest whose validation
// FPR is at most α, or with -confidence 1−δ the Neyman–Pearson umbrella threshold, whose FPR
// on fresh negatives stays at most α with probability 1 − δ (metrics.ThresholdNP).
//
// Usage:
//
//	roctrain [flags]                              train and compare the runs of -losses
//	roctrain -predict model.params -data rows.csv  score rows with a model saved by -out
//
// Without -data it trains on the embedded Breast Cancer Wisconsin (Diagnostic) data. Bad
// flags and output paths fail before any training, and so does a flag given but ignored (such
// as -warmup without a "+wu" run, or a training flag next to -predict). A run that fails is
// named on stderr and the others are still reported; an interrupt or SIGTERM stops training
// after the current step and reports the runs that finished. The exit status is 0 on success,
// 1 when anything failed or was interrupted, 2 for bad flags.
//
// The guides docs/training.md and docs/deploying.md show what the command prints and how to
// read it; docs/reference.md lists the JSON keys and the sidecar's versions.
//
// # Flags
//
// The flags, in alphabetical order (roctrain -h prints them too; docs/reference.md says
// more of each, and lists the JSON keys):
//
//	-adapter string
//	    lora:r=R: train LoRA adapters of rank R on every hidden layer and the last layer,
//	    the other weights frozen
//	-alpha float (default 0.1)
//	    target false-positive rate, 0 < alpha < 1
//	-batch int (default 128)
//	    rows per step, 2…1048576
//	-boot int (default 1000)
//	    bootstrap resamples of the intervals and paired tests; 0 for none, 0…1000000
//	-confidence float
//	    confidence 1−δ of the deployed threshold, 0 < confidence < 1 (such as 0.95): deploy
//	    the Neyman–Pearson threshold of the validation part, whose FPR on fresh negatives
//	    stays ≤ alpha with this probability (with -recall: TPR ≥ recall), per class on
//	    multi-class and multi-label data, with Clopper–Pearson intervals of its test rates;
//	    0 = off, the lowest threshold whose validation FPR is ≤ alpha
//	-data string
//	    training data: a CSV (header row; numeric or text features, blanks and NA imputed; a
//	    0/1, true/false, two-valued with -positive, or class label) or a .parquet file; with
//	    -valid and -test, the training part; default: the embedded WDBC data
//	-diagnose
//	    record the corrective-power diagnostics of every epoch (JSON "diagnostics", and
//	    <plot>-diagnostics.png beside -plot)
//	-dtype string (default "float64")
//	    the models' parameters and arithmetic: float64 or float32
//	-epochs int (default 60)
//	    epochs of each run's loss, 1…100000
//	-freeze string
//	    "body": train only the last layer, every other frozen (with -init, the saved body;
//	    without it, a random one)
//	-hidden string (default "64")
//	    hidden layer sizes of the MLP, comma-separated, at most 8 layers of 1…4096 units; ""
//	    for a linear scorer
//	-init string
//	    start every run from this model saved by -out (its .params or .json): the whole
//	    model when its outputs fit the data's task, else its body under a new output layer;
//	    its features must be the data's (docs/transfer.md)
//	-json
//	    print one JSON object with the results, and nothing else, on stdout
//	-label string
//	    label column (0/1 or true/false, two values with -positive, or more than two
//	    classes: numbers or names); several, comma-separated, name the 0/1 columns of
//	    multi-label data; default: the one column named label, y, class or target, else the
//	    last column
//	-losses string (default "ce,kde,sqhinge,sqhinge+wu")
//	    comma-separated runs, each a name with options after colons (kde:lr=0.3:pool=1024)
//	    and a "+wu" suffix that runs a plain loss after -warmup epochs of cross-entropy
//	    (sqhinge+wu):
//	      ce         cross-entropy
//	      kde        cross-entropy, then KDE fine-tuning at a tenth of the learning rate,
//	                 kept only when it improves validation; options tail, widen=w, pool=n,
//	                 lr=s, batch=n, pos=p
//	      kde-plain  the KDE loss alone, trained from the start; options tail, widen=w,
//	                 pool=n, anneal
//	      ce+kde     cross-entropy plus λ times the KDE loss from the start, λ ∈ {0.1, 0.3,
//	                 1, 3} chosen on validation like the learning rate; options tail,
//	                 widen=w, pool=n, w=λ
//	      logistic   the pairwise logistic surrogate log(1 + e^(−x)) over all pairs, x =
//	                 f_pos − f_neg; options maxfpr=β, mintpr=γ, ovo
//	      exp        the pairwise exponential surrogate e^(−x) over all pairs, x = f_pos −
//	                 f_neg; options maxfpr=β, mintpr=γ, ovo
//	      square     the pairwise square surrogate (1 − x)² over all pairs, x = f_pos −
//	                 f_neg; options maxfpr=β, mintpr=γ, ovo
//	      hinge      the pairwise hinge surrogate (1 − x)₊ over all pairs, x = f_pos −
//	                 f_neg; options maxfpr=β, mintpr=γ, ovo
//	      sqhinge    the pairwise squared hinge surrogate (1 − x)₊² over all pairs, x =
//	                 f_pos − f_neg; options maxfpr=β, mintpr=γ, ovo
//	      aucm       AUC-M on σ(score) trained with PESG at LibAUC's defaults (Deep-AUC,
//	                 Yuan et al. 2021), PESG's learning rate chosen on validation among
//	                 {0.03, 0.1, 0.3} in place of the run's; options lr=η, margin=m
//	      pauc       the pairwise squared hinge over the partial AUC up to false-positive
//	                 rate α (MaxFPR = α); options mintpr=γ
//	    options:
//	      tail       the KDE loss's upper bound with a linear tail, which keeps a gradient
//	                 for positives far below τ
//	      widen=w    the KDE bandwidths w times those of the batch rule, as in widen=2
//	      pool=n     n more negatives in every batch of the KDE loss (for kde: of its
//	                 fine-tuning), as in pool=1024
//	      lr=s       the fine-tuning at s times the first phase's learning rate (default
//	                 0.1), as in lr=0.3
//	      batch=n    the fine-tuning in batches of n rows, as in batch=1024
//	      pos=p      the fine-tuning with a share p of positives in every batch, as in
//	                 pos=0.5
//	      anneal     bandwidths annealed over widths 4, 2 and 1 of the rule's, one phase
//	                 each (not with widen)
//	      w=λ        one fixed weight λ instead of the choice on validation, as in w=1
//	      maxfpr=β   the one-way partial AUC up to false-positive rate β: only the top
//	                 ⌈β·n₋⌉ negatives of a batch, as in maxfpr=0.1
//	      mintpr=γ   the two-way partial AUC: only the bottom ⌈(1−γ)·n₊⌉ positives of a
//	                 batch as well, as in mintpr=0.5
//	      ovo        on multi-class data, one-vs-one: the mean over ordered pairs of classes
//	                 (default one-vs-rest); not for binary or multi-label data
//	      margin=m   the AUC-M margin (default 1), as in margin=1
//	-lr string (default "0.001,0.003,0.01")
//	    learning rates tried per run (Adam); validation picks one. aucm searches PESG's own,
//	    0.03, 0.1 and 0.3, unless aucm:lr=η fixes one
//	-missing string (default "impute")
//	    missing feature values (empty, NA, NaN, null): impute (the training median and a 0/1
//	    "was missing" feature; a "(missing)" level in text columns) or error
//	-out string
//	    directory to save each run's best model in: <run>.json, its operating point, and
//	    <run>.<h>.params, the model (h its SHA-256's first 16 hex digits), which -predict
//	    takes by either name; with -seeds, <run>.seed<s>.json…; an aucm run also its PESG
//	    state, <run>.pesg
//	-plot string (default "roc.png")
//	    PNG of the ROC curves; "" for none
//	-positive string
//	    the positive class of a two-valued label column, such as Yes or M
//	-predict string
//	    classify the rows of -data with this model saved by -out (and the .json beside it)
//	    instead of training
//	-recall float
//	    target true-positive rate, 0 < recall < 1: train the KDE runs with the mirrored loss
//	    (the false-positive rate at this recall), select on validation TNR@TPR=recall and
//	    report test FPR@TPR=recall; 0 = off
//	-seed uint (default 1)
//	    seed of the split, the initialisation and the batches of the first repetition;
//	    -seed+seeds−1 must not pass 18446744073709551615
//	-seeds int (default 1)
//	    repetitions with seeds -seed, -seed+1, …: each has its own split (unless -valid and
//	    -test give it), initialisation and batches, 1…1000
//	-test string
//	    the test part, a file of -data's columns (with -valid)
//	-valid string
//	    the validation part, a file of -data's columns (with -test; -data is then the
//	    training part, and -seeds vary only the initialisation and the batches)
//	-warmup int (default 10)
//	    cross-entropy warm-up epochs of the "+wu" runs, 0…100000
//
// # Examples
//
// Compare cross-entropy with the KDE-quantile recipe over five seeds, save the models, and
// score new rows with one of them:
//
//	roctrain -losses ce,kde -seeds 5 -out models
//	roctrain -predict models/kde.seed1.params -data rows.csv > scored.csv
package main
