package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/experiment"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/crossentropy"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/rocops/rocops/train"
)

// classTask is a multi-class or multi-label data set: split returns one seed's standardised
// parts.
type classTask struct {
	name       string
	multilabel bool
	split      func(seed uint64) (*experiment.Split, error)
}

// classTasks are the tasks of "results classes" by their -tasks key, read from the folder
// panel.
func classTasks(panel string) map[string]classTask {
	return map[string]classTask{
		"hpc":     panelClasses(panel, "hpc_jobs", "hpc_jobs.csv"),
		"vehicle": panelClasses(panel, "vehicle", "vehicle.csv"),
		"hpc-labels": {name: "hpc_jobs labels", multilabel: true, split: func(seed uint64) (*experiment.Split, error) {
			return hpcLabels(panel, seed)
		}},
	}
}

// panelClasses is a multi-class panel file split 60/20/20 by class (experiment.NewSplit).
func panelClasses(panel, name, file string) classTask {
	return classTask{name: name, split: splitOf(func() (*data.Dataset, error) { return loadPanel(panel, file) })}
}

// hpcLabelNames are the labels of the multi-label task built from hpc_jobs.csv.
var hpcLabelNames = []string{"not_VF", "M_or_L", "pending"}

// hpcLabels is a multi-label task built from hpc_jobs.csv: three labels per job, not_VF
// (its class is not VF, the fastest), M_or_L (its class is M or L, the two slowest) and
// pending (num_pending > 0: other jobs were queued when it was submitted), with num_pending
// removed from the features. not_VF contains M_or_L, and pending co-occurs with both. The
// rows are split 60/20/20 stratified by the joint label (the job's class crossed with
// pending, 8 strata), then each part's joint class is turned into the three indicators.
func hpcLabels(panel string, seed uint64) (*experiment.Split, error) {
	ds, err := loadPanel(panel, "hpc_jobs.csv")
	if err != nil {
		return nil, err
	}
	joint, err := hpcJoint(ds)
	if err != nil {
		return nil, err
	}
	sp, err := experiment.NewSplit(joint, seed)
	if err != nil {
		return nil, err
	}
	for _, part := range []*data.Dataset{sp.Train, sp.Val, sp.Test} {
		y := make([]float64, 0, 3*part.Rows)
		for _, j := range part.Y {
			class := ds.Classes[int(j)/2]
			y = append(y, b2f(class != "VF"), b2f(class == "M" || class == "L"), float64(int(j)%2))
		}
		part.Y, part.Classes, part.Labels, part.LabelName = y, nil, slices.Clone(hpcLabelNames), ""
		if err := part.Validate(); err != nil {
			return nil, err
		}
	}
	return sp, nil
}

// hpcJoint is hpc_jobs.csv's data with num_pending taken out of the features, classed by the
// job's class crossed with num_pending > 0 ("F,0", "F,1", …).
func hpcJoint(ds *data.Dataset) (*data.Dataset, error) {
	pend := slices.Index(ds.FeatureNames, "num_pending")
	if pend < 0 || !slices.Equal(ds.Classes, []string{"F", "L", "M", "VF"}) {
		return nil, fmt.Errorf("hpc_jobs.csv: want a num_pending column and the classes F, L, M, VF; have %v, %v", ds.FeatureNames, ds.Classes)
	}
	joint := &data.Dataset{Rows: ds.Rows, Cols: ds.Cols - 1, LabelName: "class×pending",
		FeatureNames: slices.Delete(slices.Clone(ds.FeatureNames), pend, pend+1)}
	for c := range ds.Classes {
		joint.Classes = append(joint.Classes, ds.Classes[c]+",0", ds.Classes[c]+",1")
	}
	for i := range ds.Rows {
		row := ds.Row(i)
		joint.X = append(joint.X, row[:pend]...)
		joint.X = append(joint.X, row[pend+1:]...)
		p := 0.0
		if row[pend] > 0 {
			p = 1
		}
		joint.Y = append(joint.Y, 2*ds.Y[i]+p)
	}
	return joint, joint.Validate()
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// classRun returns the recipe and the validation metric of the run named name ("ce",
// "hinge:ovr+wu", …) on a multi-class (multilabel false) or multi-label task.
func classRun(name string, multilabel bool) (train.Recipe, train.Metric, error) {
	base, wu := strings.CutSuffix(name, "+wu")
	warmup := 0
	if wu {
		warmup = 5
	}
	metric := train.MacroAUC(metrics.OvR)
	if base == "aucm" || strings.HasPrefix(base, "aucm:lr=") {
		if wu {
			return nil, metric, fmt.Errorf("%s: aucm has no warm-up here", name)
		}
		return train.Plain(train.AUCM{}), metric, nil // PESG at LibAUC's defaults, its rate from the search
	}
	if base == "ce" {
		if wu {
			return nil, metric, fmt.Errorf("%s: ce has no warm-up", name)
		}
		return train.Plain(nil), metric, nil // the data's cross-entropy
	}
	loss, metric, err := classPairwise(name, base, multilabel)
	if err != nil {
		return nil, metric, err
	}
	return train.WithWarmup(warmup, loss), metric, nil
}

// classPairwise returns the pairwise loss and the validation metric of the run name, whose
// name without "+wu" is base, "<surrogate>:<split>".
func classPairwise(name, base string, multilabel bool) (train.Loss, train.Metric, error) {
	metric := train.MacroAUC(metrics.OvR)
	sur, split, _ := strings.Cut(base, ":")
	var cfg pairwise.Config
	switch sur {
	case "hinge":
		cfg.Surrogate = pairwise.Hinge
	case "sqhinge":
		cfg.Surrogate = pairwise.SquaredHinge
	case "square":
		cfg.Surrogate = pairwise.Square
	default:
		return nil, metric, fmt.Errorf("%s: unknown surrogate %q", name, sur)
	}
	switch {
	case multilabel && split == "labels":
		return train.Pairwise{Config: cfg}, metric, nil
	case !multilabel && (split == "ovr" || split == "ovo"):
		if split == "ovo" {
			metric = train.MacroAUC(metrics.OvO)
		}
		cfg.OvO = split == "ovo"
		return train.Pairwise{Config: cfg}, metric, nil
	}
	return nil, metric, fmt.Errorf("%s: split %q does not fit the task", name, split)
}

// classRates returns the learning rates a run's search tries: Adam's 0.001, 0.003 and 0.01, or
// for the aucm names those roctrain searches (train.SearchRates: PESG's train.PESGRates, or
// η alone for "aucm:lr=η").
func classRates(name string) ([]float64, error) {
	if strings.HasPrefix(name, "aucm") {
		return train.SearchRates(name)
	}
	return []float64{0.001, 0.003, 0.01}, nil
}

// defaultClassRuns are a task's runs without -runs.
func defaultClassRuns(multilabel bool) []string {
	splits := []string{"ovr", "ovo"}
	if multilabel {
		splits = []string{"labels"}
	}
	runs := []string{"ce"}
	for _, split := range splits {
		for _, sur := range []string{"hinge", "sqhinge"} {
			runs = append(runs, sur+":"+split, sur+":"+split+"+wu")
		}
	}
	return runs
}

// classRow is one line of a multi-class results log: a run's tuned test figures on one task
// and seed.
type classRow struct {
	Task  string  `json:"task"`
	Seed  uint64  `json:"seed"`
	Run   string  `json:"run"`
	LR    float64 `json:"lr"`
	Val   float64 `json:"val"` // the kept epoch's validation macro AUC (the run's method)
	OvO   float64 `json:"test_ovo,omitempty"`
	OvR   float64 `json:"test_ovr"` // multi-label: the macro label-wise AUC
	Epoch int     `json:"epoch"`
	Secs  float64 `json:"secs"`
}

// key names the run of r in its log.
func (r classRow) key() string { return fmt.Sprintf("%s/%d/%s", r.Task, r.Seed, r.Run) }

// classAUC returns the macro OvO and OvR AUC of m on the part te (multi-label: 0 and the macro
// label-wise AUC), of m's softmax probabilities when prob is set.
func classAUC(m nn.Model, te *data.Dataset, prob bool) (ovo, ovr float64, err error) {
	k := te.Task().K()
	s, err := nn.Scores(m, te.X, te.Rows)
	if err != nil {
		return 0, 0, err
	}
	if prob {
		if s, err = crossentropy.Softmax(s, k); err != nil {
			return 0, 0, err
		}
	}
	if te.Labels != nil {
		ovr, err = metrics.TaskAUC(s, te.Y, rocops.Labels(k), metrics.OvR, metrics.Macro)
		return 0, ovr, err
	}
	if ovo, err = metrics.TaskAUC(s, te.Y, rocops.Classes(k), metrics.OvO, metrics.Macro); err != nil {
		return 0, 0, err
	}
	ovr, err = metrics.TaskAUC(s, te.Y, rocops.Classes(k), metrics.OvR, metrics.Macro)
	return ovo, ovr, err
}

// classOptions are the flags of "results classes".
type classOptions struct {
	panel, out string
	tasks      []string
	runs       []string // nil: each task's defaults
	seeds      []uint64
	epochs     int
}

// parseClasses reads the flags of "results classes".
func parseClasses(args []string, stderr io.Writer) (*classOptions, error) {
	o := &classOptions{}
	fs := flag.NewFlagSet("results classes", flag.ContinueOnError)
	fs.StringVar(&o.panel, "panel", "", "folder of the development panel's CSV files")
	tasks := fs.String("tasks", "hpc,vehicle,hpc-labels", "comma-separated tasks: hpc, vehicle (multi-class), hpc-labels (multi-label)")
	runs := fs.String("runs", "", `comma-separated runs: ce, <surrogate>:<split>[+wu] (hinge, sqhinge or square; ovr, ovo or labels), aucm, aucm:lr=η; default: ce and hinge and sqhinge with the task's splits, each also +wu`)
	seeds := fs.String("seeds", "1", "comma-separated seeds")
	fs.IntVar(&o.epochs, "epochs", 30, "epochs after the warm-up")
	fs.StringVar(&o.out, "out", "mc.jsonl", "the results log the runs are appended to (runs already in it are skipped)")
	if err := parse(fs, args, stderr); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, usageError{fmt.Errorf("classes: unexpected arguments %q", fs.Args())}
	}
	o.tasks = list(*tasks)
	if *runs != "" {
		o.runs = list(*runs)
	}
	var err error
	o.seeds, err = seedList(*seeds)
	return o, err
}
