// Command rocbeam scores rows with a deployed model and evaluates scores, exactly, over more
// rows than one machine holds, on Apache Beam: on the embedded prism runner by default, or on
// Flink, Spark or Dataflow through the SDK's runner flags.
//
//	go run ./cmd/rocbeam -scores 'scored-*.csv' -output out
//
// reads every CSV shard matching the glob (columns "score" and "label", or -label's; others are ignored,
// but every shard must have the same columns) and writes out/metrics.json: n, positives, auc,
// auc_variance (DeLong), auc_ci95, alpha, tpr_at_fpr, pauc, deployed_threshold, deployed_fpr,
// deployed_tpr and roc {fpr, tpr}, each equal to what package metrics computes in process on
// the same rows. -alpha sets the false-positive rate of tpr_at_fpr and pauc (default 0.1).
// -confidence 1−δ (such as 0.95) makes the deployed point the Neyman–Pearson umbrella threshold
// of these rows at -alpha, read off the merged counts, whose false-positive rate on fresh
// negatives stays at most α with probability 1 − δ (metrics.ThresholdNP on the same rows,
// exactly), with its rates here and deployed_confidence; with -model it replaces the model's
// threshold, and -input refuses it.
//
//	go run ./cmd/rocbeam -model models/kde.params -input 'rows-*.csv' -output out
//
// scores every row of the CSV shards of raw features with a deployed model (package deploy),
// writing out/scored-<shard name> as deploy's ScoreCSV writes it ("row,<label>,score,flag"),
// and, when the rows have the model's label column, evaluates the scores into
// out/metrics.json with the model's threshold as the deployed point (deployed_threshold,
// deployed_fpr, deployed_tpr) and its α as the default -alpha; for a multi-class model, the
// shards are "row,<label>,score_<class>…,flag_<class>…" and metrics.json adds classes (each
// class's one-vs-rest figures) and auc_ovo, the top figures their macro means (a multi-label
// model is refused). -model with -scores evaluates
// scores made elsewhere at the model's threshold and α, the label column being the model's
// unless -label names another.
//
// Runner flags are the SDK's own, for example
//
//	-runner=prism                                   (the default: in process, no cluster)
//	-runner=flink -endpoint=localhost:8099 -environment_type=DOCKER
//	-runner=spark -endpoint=localhost:8099 -environment_type=DOCKER
//	-runner=dataflow -project=P -region=R -staging_location=gs://B/staging
//
// see docs/beam.md. A bad row, shards whose columns differ, and no rows at all fail the run
// with a message naming the file (and line); metrics.json is then not written. The SDK's own
// log lines are shown with -v only, so that rocbeam's error is the last line of a failed run.
// A run keeps its temporary files in a directory of its own, removed at the end.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/rocops/rocops/beam/rocbeam"
	"github.com/rocops/rocops/deploy"
)

var (
	scores  = flag.String("scores", "", "glob of CSV shards with columns score and label to evaluate")
	model   = flag.String("model", "", "a deployed model (its .params or .json sidecar): with -input, score its rows; with -scores, its threshold is the deployed point")
	input   = flag.String("input", "", "glob of CSV shards of raw feature rows for -model to score")
	label   = flag.String("label", "", "the label column of -scores (default: the model's with -model, else label)")
	output  = flag.String("output", ".", "directory of metrics.json, and of the scored shards of -input")
	alpha   = flag.Float64("alpha", 0, fmt.Sprintf("false-positive rate of tpr_at_fpr and pauc (0: the model's α, else %v)", rocbeam.DefaultAlpha))
	conf    = flag.Float64("confidence", 0, "with -scores, choose the deployed threshold on these rows: the Neyman–Pearson threshold whose FPR on fresh negatives stays ≤ alpha with this probability, such as 0.95 (in place of a -model's threshold); 0 = none")
	verbose = flag.Bool("v", false, "show the Beam SDK's own log lines (by default only rocbeam's lines and its error)")
)

func main() {
	flag.Parse()
	if *verbose {
		beamlog.LogLevel = "info"
	}
	beam.Init()
	quietSDK(*verbose)
	if err := execute(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "rocbeam:", strings.TrimPrefix(err.Error(), "rocbeam: "))
		os.Exit(1)
	}
}

// quietSDK, unless verbose, discards the log lines of the Beam SDK and its runner, which go
// through log/slog and package log (a failed run's plan, some 5 KB, ahead of rocbeam's
// one-line error); rocbeam's own lines have a logger of their own.
func quietSDK(verbose bool) {
	if !verbose {
		slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil))) // package log too
	}
}

// execute is run with the process's temporary directory set to one of its own, removed after
// the run: the SDK's loopback runner leaves an empty beamloopbackworker-* file there at every
// run, which would pile up in the system's.
func execute(ctx context.Context) error {
	dir, err := os.MkdirTemp("", "rocbeam-")
	if err != nil {
		return run(ctx)
	}
	defer os.RemoveAll(dir)
	for _, name := range []string{"TMPDIR", "TMP", "TEMP"} {
		if old, ok := os.LookupEnv(name); ok {
			defer os.Setenv(name, old)
		} else {
			defer os.Unsetenv(name)
		}
		os.Setenv(name, dir)
	}
	return run(ctx)
}

func run(ctx context.Context) error {
	if *alpha < 0 || *alpha > 1 {
		return fmt.Errorf("-alpha %v: want it in (0, 1]", *alpha)
	}
	if *conf != 0 && !(*conf > 0 && *conf < 1) {
		return fmt.Errorf("-confidence %v: want it in (0, 1), or 0 for none", *conf)
	}
	cfg := rocbeam.Config{Scores: *scores, Input: *input, Model: *model, Output: *output, Alpha: *alpha, Label: *label, Confidence: *conf}
	p, s := beam.NewPipelineWithRoot()
	switch {
	case *input != "" && *scores != "":
		return fmt.Errorf("give -input (rows to score) or -scores (scores to evaluate), not both")
	case *input != "" && *model == "":
		return fmt.Errorf("-input needs -model, the model to score its rows with")
	case *input != "" && *label != "":
		return fmt.Errorf("-label is for -scores: -input takes the model's label column")
	case *input != "" && *conf != 0:
		return fmt.Errorf("-confidence is for -scores: the scored shards of -input are flagged at the model's own threshold")
	case *input != "":
		if err := rocbeam.Score(s, cfg); err != nil {
			return err
		}
	case *scores != "":
		if *model != "" {
			sc, err := deploy.Load(*model)
			if err != nil {
				return err
			}
			if err := rocbeam.Binary(sc); err != nil {
				sc.Close()
				return err
			}
			t := sc.OperatingPoint().Threshold
			cfg.Threshold = &t
			if cfg.Alpha == 0 {
				cfg.Alpha = sc.OperatingPoint().Alpha
			}
			if cfg.Label == "" {
				cfg.Label = sc.OperatingPoint().Label
			}
			sc.Close()
		}
		if err := rocbeam.Evaluate(s, cfg); err != nil {
			return err
		}
	default:
		return fmt.Errorf("give -scores 'glob', or -model m.params -input 'glob' (see -help)")
	}
	res, err := beamx.RunWithMetrics(ctx, p)
	if err != nil {
		return cause(err)
	}
	var rows int64
	if res != nil {
		for _, c := range res.Metrics().AllMetrics().Counters() {
			if c.Namespace() == "rocbeam" && c.Name() == "rows" {
				rows += c.Result()
			}
		}
	}
	verb := "evaluated"
	if *input != "" {
		verb = "scored into " + strings.TrimSuffix(*output, "/") + "/scored-*"
	}
	fmt.Fprintf(os.Stderr, "rocbeam: %d rows %s\n", rows, verb)
	return nil
}

// cause shortens a runner's failure to its last line, the DoFn's own error (the runner logs
// the whole of it, with the plan of the failed stage).
func cause(err error) error {
	msg := strings.TrimSpace(err.Error())
	if i := strings.LastIndex(msg, "\n"); i >= 0 {
		msg = msg[i+1:]
	}
	return fmt.Errorf("%s", msg)
}
