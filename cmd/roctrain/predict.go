package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/rocops/rocops/deploy"
	"github.com/rocops/rocops/experiment"
	"github.com/rocops/rocops/nn"
)

// saveRun saves run r of spec, trained on split sp, with -out: deploy.Save writes the model
// and its operating point as one unit, which -predict modelPath(…) loads.
func saveRun(o *options, sp *experiment.Split, spec runSpec, r *seedResult, m nn.Model) error {
	name := strings.TrimSuffix(filepath.Base(modelPath(o, spec, sp.Seed)), ".params")
	_, err := deploy.Save(o.out, name, m, r.OperatingPoint(sp.Train.LabelName), sp.Std, sp.Train.FeatureNames)
	return err
}

// predict is -predict model.params -data new.csv: deploy.Load reads the model and its
// operating point, and Scorer.ScoreFile prints one CSV line per row of -data on stdout. The
// number flagged goes to stderr. It stops between rows on SIGINT or SIGTERM (ctx), closing
// -data so that a read blocked on a pipe returns too; a closed stdout (| head) ends it
// quietly, with the summary of the rows written.
func predict(ctx context.Context, o *options, stdout, stderr io.Writer) error {
	if o.data == "" {
		return errors.New("-predict needs -data: the CSV or Parquet file of the rows to classify")
	}
	s, err := deploy.Load(o.predict)
	if err != nil {
		return predictLoadError(o.predict, err)
	}
	defer s.Close()
	// A write to a closed pipe then fails with EPIPE instead of killing the process.
	pipe := make(chan os.Signal, 1)
	signal.Notify(pipe, syscall.SIGPIPE)
	defer signal.Stop(pipe)

	rows, flagged, err := s.ScoreFile(ctx, o.data, stdout)
	closed := errors.Is(err, syscall.EPIPE)
	switch {
	case closed:
		err = nil
	case ctx.Err() != nil:
		err = fmt.Errorf("-predict stopped after %d rows: %w", rows, ctx.Err())
	case err != nil:
		return err
	}
	what := fmt.Sprintf("%d rows", rows)
	if closed || ctx.Err() != nil {
		what = fmt.Sprintf("the %d rows written before %s", rows, map[bool]string{true: "standard output closed", false: "the stop"}[closed])
	}
	op := s.OperatingPoint()
	fmt.Fprintf(stderr, "roctrain: flagged %d of %s: score ≥ %v, the threshold that kept validation FPR ≤ α = %g (%s, seed %d)\n",
		flagged, what, op.Threshold, op.Alpha, filepath.Base(s.ModelPath()), op.Run.Seed)
	return err
}

// predictLoadError names the file the user gave, and for a run saved with -seeds, whose
// models are <run>.seed<s>.params, lists them.
func predictLoadError(path string, err error) error {
	side := deploy.SidecarPath(path)
	if !errors.Is(err, fs.ErrNotExist) || !errors.Is(err, deploy.ErrSidecar) {
		return fmt.Errorf("-predict %s: %w", path, err)
	}
	found := deploy.SeedModels(path)
	if len(found) == 0 {
		return fmt.Errorf("-predict %s: no operating-point file %s (-out writes it beside the model)", path, side)
	}
	return fmt.Errorf("-predict %s: no operating-point file %s; -out with -seeds saved one model per seed: %s",
		path, side, strings.Join(found, ", "))
}
