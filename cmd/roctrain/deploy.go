package main

import (
	"cmp"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/rocops/rocops/deploy"
	"github.com/rocops/rocops/experiment"
	"github.com/rocops/rocops/internal/runname"
	"github.com/rocops/rocops/optim"
	"github.com/rocops/rocops/train"
)

// predict is -predict model.params -data new.csv: deploy.Load reads the model and its
// operating point, and Scorer.ScoreFile prints one CSV line per row of -data on stdout, the
// number flagged on stderr. SIGINT or SIGTERM (ctx) stop it between rows; a closed stdout
// (| head) ends it quietly, with the summary of the rows written.
func predict(ctx context.Context, o *options, stdout, stderr io.Writer) error {
	if o.data == "" {
		return errors.New("-predict needs -data: the CSV or Parquet file of the rows to classify")
	}
	s, err := deploy.Load(o.predict)
	if err != nil {
		return fmt.Errorf("-predict %s: %w", o.predict, deploy.ExplainLoad(o.predict, err))
	}
	defer s.Close()
	// A write to a closed pipe then fails with EPIPE instead of killing the process.
	pipe := make(chan os.Signal, 1)
	signal.Notify(pipe, syscall.SIGPIPE)
	defer signal.Stop(pipe)

	var perClass *classColumns
	out := io.Writer(stdout)
	if op := s.OperatingPoint(); op.Classes != nil {
		perClass = newClassColumns(stdout, op.Classes, !op.Multilabel)
		out = perClass
	}
	rows, flagged, err := s.ScoreFile(ctx, o.data, out)
	if perClass != nil {
		if cerr := perClass.close(); err == nil {
			err = cerr
		}
	}
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
	if op.Classes != nil {
		what += " (rows with a class flagged)"
	}
	fmt.Fprintf(stderr, "roctrain: flagged %d of %s: %s (%s, seed %d)\n",
		flagged, what, flagRule(op), filepath.Base(s.ModelPath()), op.Run.Seed)
	if perClass != nil {
		counts := make([]string, len(op.Classes))
		for c, name := range op.Classes {
			counts[c] = fmt.Sprintf("%s %d", name, perClass.flagged[c])
		}
		what := map[bool]string{true: "label", false: "class"}[op.Multilabel]
		fmt.Fprintf(stderr, "roctrain: flagged rows per %s: %s\n", what, strings.Join(counts, ", "))
	}
	return err
}

// classColumns passes the scored rows of a model of classes through to w, counting the rows
// flagged for each class and, for a multi-class model, adding the column predicted: the class
// of the highest score (the first on ties). Its Write takes the CSV deploy writes; a failure
// to write to w is returned to the writer.
type classColumns struct {
	pw      *io.PipeWriter
	done    chan error
	flagged []int
}

func newClassColumns(w io.Writer, classes []string, predicted bool) *classColumns {
	pr, pw := io.Pipe()
	c := &classColumns{pw: pw, done: make(chan error, 1), flagged: make([]int, len(classes))}
	go func() {
		err := c.copy(pr, w, classes, predicted)
		pr.CloseWithError(cmp.Or(err, io.ErrClosedPipe))
		c.done <- err
	}()
	return c
}

func (c *classColumns) Write(p []byte) (int, error) { return c.pw.Write(p) }

// close ends the input and returns the copy's error.
func (c *classColumns) close() error {
	c.pw.Close()
	return <-c.done
}

// copy reads the records of r and writes them to w, with predicted.
func (c *classColumns) copy(r io.Reader, w io.Writer, classes []string, predicted bool) error {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord, cr.ReuseRecord = -1, true
	cw := csv.NewWriter(w)
	k := len(classes)
	for n := 0; ; n++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		scores := rec[len(rec)-2*k : len(rec)-k]
		if n > 0 {
			for j, f := range rec[len(rec)-k:] {
				if f == "1" {
					c.flagged[j]++
				}
			}
		}
		if predicted {
			best := "predicted"
			if n > 0 {
				top := math.Inf(-1)
				for j, f := range scores {
					if v, err := strconv.ParseFloat(f, 64); err == nil && (v > top || best == "predicted") {
						top, best = v, classes[j]
					}
				}
			}
			rec = append(rec, best)
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
		if n%256 == 0 {
			if cw.Flush(); cw.Error() != nil {
				return cw.Error()
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// flagRule says how op flags a row and what its thresholds keep: FPR ≤ α on validation, or
// with a confidence a rate kept on fresh rows with that probability.
func flagRule(op deploy.OperatingPoint) string {
	rule, of, keeps := fmt.Sprintf("score ≥ %v, the threshold that", op.Threshold), "", "keeps"
	if op.Classes != nil {
		rule, of, keeps = fmt.Sprintf("score_c ≥ τ_c = %v, the thresholds that", op.Thresholds), "each class's ", "keep"
	}
	const np = "on fresh rows with probability %g, chosen on validation by the Neyman–Pearson rule"
	switch {
	case op.Confidence == 0:
		return fmt.Sprintf("%s kept %svalidation FPR ≤ α = %g", rule, of, op.Alpha)
	case op.Recall > 0:
		return fmt.Sprintf("%s %s %sTPR ≥ %g "+np, rule, keeps, of, op.Recall, op.Confidence)
	}
	return fmt.Sprintf("%s %s %sFPR ≤ α = %g "+np, rule, keeps, of, op.Alpha, op.Confidence)
}

// seedResult is one run on one seed: an entry of "per_seed" in the JSON output, and the
// whole result when -seeds is 1.
type seedResult = experiment.Result

// finish completes run k's result r on split sp, measured by experiment.Compare; with -out,
// deploy.Save writes its model and operating point as one unit, which -predict
// modelPath(…) loads, and for an aucm run optim.SavePESGState then writes the PESG state its
// kept candidate ended with to pesgPath(…), under the pair's lock (deploy.SaveWith) and with
// the model file's SHA-256. secs is how long its search took.
func (o *options) finish(sp *experiment.Split, spec runSpec, best *experiment.Best, r *seedResult, secs float64) error {
	r.Loss, r.WarmupEpochs, r.Name = strings.TrimSuffix(spec.name, runname.WarmupSuffix), spec.warmup, spec.label
	r.TrainSeconds, r.Target = secs, experiment.Target(spec.recipes, o.recall > 0)
	if len(spec.recipes) > 1 {
		r.ChosenRecipe = best.Recipe.String()
	}
	if o.out == "" {
		return nil
	}
	m := modelPath(o, spec, sp.Seed)
	name := strings.TrimSuffix(filepath.Base(m), ".params")
	var with func(string, [32]byte) error
	if best.PESG != nil { // training state, not deployment: beside the model, not in its unit,
		// but written under its lock, naming the model, so that runs saving at once into one
		// -out leave a state with the pair it was trained with
		with = func(_ string, sum [32]byte) error {
			if testBeforeState != nil {
				testBeforeState(sp.Seed)
			}
			st := *best.PESG
			st.ModelSHA256 = sum
			if err := optim.SavePESGState(pesgPath(m), st); err != nil {
				return fmt.Errorf("-out: %w", err)
			}
			return nil
		}
	}
	op := operatingPoint(r, sp.Train.LabelName)
	op.Encoder = sp.Enc
	if in := o.arm.init; in != nil {
		op.Run.InitSHA256 = in.sha256
	}
	_, err := deploy.SaveWith(o.out, name, best.Model, op, sp.Std, sp.Train.FeatureNames, with)
	return err
}

// operatingPoint is what deploy.Save records of r: its deployed threshold (+Inf, which flags
// nothing, when no threshold kept validation FPR ≤ α), its validation and test rates, how it
// was trained, and label, the training data's label column. For a result on data of classes
// (Classes set) it records the classes or labels, the per-class thresholds chosen on
// validation one-vs-rest (+Inf for a class none kept at validation FPR ≤ α), their per-class
// rates with their macro means, and whether the scores are softmax probabilities; a
// multi-label model records no label, its label columns being its classes. With -confidence it
// records the confidence, and with -recall the recall the thresholds guarantee.
func operatingPoint(r *seedResult, label string) deploy.OperatingPoint {
	threshold := math.Inf(1)
	if r.DeployedThreshold != nil {
		threshold = *r.DeployedThreshold
	}
	op := deploy.OperatingPoint{
		Alpha: r.Alpha, Threshold: threshold, ValFPR: r.ValFPR, ValTPR: r.ValTPR,
		TestFPR: r.DeployedTestFPR, TestTPR: r.DeployedTestTPR, Label: label,
		Run: deploy.Run{Loss: r.Loss, WarmupEpochs: r.WarmupEpochs, Seed: r.Seed, LearningRate: r.LearningRate,
			FirstPhaseKept: r.KeptPhases < r.Phases},
	}
	if r.DeployedConfidence > 0 { // the umbrella rule: its guarantee, with -recall on the TPR
		op.Confidence, op.Recall = r.DeployedConfidence, r.Recall
	}
	m := r.Classes
	if m == nil {
		return op
	}
	op.Classes, op.Multilabel, op.Probabilities = m.Names, m.Multilabel, m.Probabilities
	if m.Multilabel {
		op.Label = ""
	}
	k := len(m.Class)
	op.Thresholds, op.ClassValFPR, op.ClassValTPR = make([]float64, k), make([]float64, k), make([]float64, k)
	op.ClassTestFPR, op.ClassTestTPR = make([]float64, k), make([]float64, k)
	for c, f := range m.Class {
		op.Thresholds[c], op.ClassValFPR[c], op.ClassValTPR[c] = f.Threshold, f.ValFPR, f.ValTPR
		op.ClassTestFPR[c], op.ClassTestTPR[c] = f.TestFPR, f.TestTPR
	}
	return op
}

// testBeforeState, when tests set it, is called with the run's seed after its model pair is
// saved and before its PESG state is written.
var testBeforeState func(seed uint64)

// pesgPath is the file of the PESG state -out saves beside an aucm run's model m
// (<run>.params): <run>.pesg, read by optim.LoadPESGState.
func pesgPath(m string) string { return strings.TrimSuffix(m, ".params") + ".pesg" }

// trainsPESG reports whether a run trains with PESG (aucm), whose state -out saves.
func trainsPESG(spec runSpec) bool {
	return slices.ContainsFunc(spec.recipes, func(r train.Recipe) bool {
		return slices.ContainsFunc(r, func(p train.Phase) bool { _, ok := p.Loss.(train.AUCM); return ok })
	})
}

// modelPath is the path -predict takes for a run -out saved: <dir>/<run>.params, with several
// seeds <dir>/<run>.seed<seed>.params, <run> being the -losses name as deploy.SafeName spells
// it (it replaces only ":" and "=" of a valid name, so distinct names keep distinct files).
func modelPath(o *options, spec runSpec, seed uint64) string {
	name := deploy.SafeName(spec.name)
	if o.seeds > 1 {
		name += fmt.Sprintf(".seed%d", seed)
	}
	return filepath.Join(o.out, name+".params")
}
