// Command rocbeam evaluates scores, exactly, over more rows than one machine holds, on Apache
// Beam: on the embedded prism runner by default, or on Flink, Spark or Dataflow through the
// SDK's runner flags.
//
//	go run ./cmd/rocbeam -scores 'scored-*.csv' -output out
//
// reads every CSV shard matching the glob (columns "score" and "label"; others are ignored,
// but every shard must have the same columns) and writes out/metrics.json: n, positives, auc,
// auc_variance (DeLong), auc_ci95, alpha, tpr_at_fpr, pauc, deployed_threshold, deployed_fpr,
// deployed_tpr and roc {fpr, tpr}, each equal to what package metrics computes in process on
// the same rows. -alpha sets the false-positive rate of tpr_at_fpr and pauc (default 0.1).
//
// Runner flags are the SDK's own, for example
//
//	-runner=prism                                   (the default: in process, no cluster)
//	-runner=flink -endpoint=localhost:8099 -environment_type=DOCKER
//	-runner=spark -endpoint=localhost:8099 -environment_type=DOCKER
//	-runner=dataflow -project=P -region=R -staging_location=gs://B/staging
//
// see docs/beam.md. A bad row, shards whose columns differ, and no rows at all fail the run
// with a message naming the file (and line); metrics.json is then not written.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/rocops/rocops/beam/rocbeam"
)

var (
	scores = flag.String("scores", "", "glob of CSV shards with columns score and label to evaluate")
	output = flag.String("output", ".", "directory of metrics.json")
	alpha  = flag.Float64("alpha", 0, fmt.Sprintf("false-positive rate of tpr_at_fpr and pauc (0: %v)", rocbeam.DefaultAlpha))
)

func main() {
	beamlog.LogLevel = "warn" // the SDK's info lines say nothing a user of rocbeam needs
	flag.Parse()
	beam.Init()
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "rocbeam:", strings.TrimPrefix(err.Error(), "rocbeam: "))
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	if *scores == "" {
		return fmt.Errorf("give -scores 'glob' (see -help)")
	}
	if *alpha < 0 || *alpha > 1 {
		return fmt.Errorf("-alpha %v: want it in (0, 1]", *alpha)
	}
	p, s := beam.NewPipelineWithRoot()
	rocbeam.Evaluate(s, rocbeam.Config{Scores: *scores, Output: *output, Alpha: *alpha})
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
	fmt.Fprintf(os.Stderr, "rocbeam: %d rows evaluated; wrote %s\n", rows, strings.TrimSuffix(*output, "/")+"/metrics.json")
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
