package rocbeam_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/rocops/rocops/beam/rocbeam"
)

// Two shards of scores, evaluated on the default runner (prism, in process). By hand: the
// positives at 0.9 and 0.6 beat all three negatives, the one at 0.4 beats one and ties one, so
// AUC = (3 + 3 + 1.5)/(3·3) = 7.5/9; at FPR 1/3 (the negative at 0.5 flagged) the TPR is 2/3.
// The curve has one point per distinct score from the top, 0.9, 0.6, 0.5, 0.4 (a positive and
// a negative: one diagonal step) and 0.1, after (0, 0).
func ExampleEvaluate() {
	dir, err := os.MkdirTemp("", "rocbeam-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "scored-0.csv"), []byte("score,label\n0.9,1\n0.5,0\n0.4,1\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "scored-1.csv"), []byte("score,label\n0.6,1\n0.4,0\n0.1,0\n"), 0o644)

	p, s := beam.NewPipelineWithRoot()
	cfg := rocbeam.Config{Scores: filepath.Join(dir, "scored-*.csv"), Output: dir, Alpha: 1.0 / 3}
	if err := rocbeam.Evaluate(s, cfg); err != nil {
		log.Fatal(err)
	}
	if err := beamx.Run(context.Background(), p); err != nil {
		log.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "metrics.json"))
	if err != nil {
		log.Fatal(err)
	}
	var r rocbeam.Report
	if err := json.Unmarshal(b, &r); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("n %d, positives %d, AUC %.4f, TPR at FPR 1/3 %.4f\n", r.N, r.Positives, r.AUC, r.TPRAtFPR)
	fmt.Println("ROC:", r.ROC.FPR, r.ROC.TPR)
	// Output:
	// n 6, positives 3, AUC 0.8333, TPR at FPR 1/3 0.6667
	// ROC: [0 0 0 0.3333333333333333 0.6666666666666666 1] [0 0.3333333333333333 0.6666666666666666 0.6666666666666666 1 1]
}
