package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/deploy"
	"github.com/rocops/rocops/experiment"
	"github.com/rocops/rocops/nn"
)

// arm is how every run's model starts (-init, -freeze, -adapter): from -init's saved model or
// from random weights, everything trained, the body frozen under a trainable head, or LoRA
// adapters on the hidden layers with the base weights frozen and the head trainable.
type arm struct {
	freeze bool      // -freeze body: every layer but the last frozen
	rank   int       // -adapter lora:r=R: R, 0 for none
	init   *initFrom // -init, nil for none
	// trainable and total count the parameters of the model every run trains (set with the
	// first split).
	trainable, total int
}

// initFrom is -init's saved model.
type initFrom struct {
	path     string // -init as given
	sha256   string // of its model file, hex
	base     *nn.MLP
	features []string
	std      data.Standardizer
	hidden   []int // its hidden layer sizes
	// whole: the model is kept whole (its outputs fit the task); else its body goes under a
	// new output layer of the task's width.
	whole bool
}

// active reports whether a flag of the arm was given: the outputs then say which arm it is.
func (a *arm) active() bool { return a.freeze || a.rank > 0 || a.init != nil }

// parseArm checks -freeze and -adapter.
func (o *options) parseArm() error {
	switch o.freezeFlag {
	case "", "body":
		o.arm.freeze = o.freezeFlag == "body"
	default:
		return fmt.Errorf("-freeze must be body (train the last layer alone), got %q", o.freezeFlag)
	}
	if o.adapter != "" {
		kind, opts, _ := strings.Cut(o.adapter, ":")
		if kind != "lora" {
			return fmt.Errorf("-adapter: unknown adapter %q (want lora:r=R, LoRA adapters of rank R)", kind)
		}
		v, ok := strings.CutPrefix(opts, "r=")
		r, err := strconv.Atoi(v)
		switch {
		case !ok || err != nil:
			return fmt.Errorf("-adapter %s: want lora:r=R, R the adapters' rank", o.adapter)
		case r < 1 || r > maxLayerSize:
			return fmt.Errorf("-adapter %s: the rank r must be in 1…%d, got %d", o.adapter, maxLayerSize, r)
		}
		o.arm.rank = r
	}
	switch {
	case o.arm.freeze && o.arm.rank > 0:
		return errors.New("-freeze body and -adapter go separately: -adapter already freezes the base weights, training the adapters and the last layer; -freeze body trains the last layer alone")
	case o.initPath != "" && o.given["hidden"]:
		return errors.New("-hidden does not apply with -init: the layers are the saved model's")
	case o.initPath == "" && (o.arm.freeze || o.arm.rank > 0) && len(o.hiddenSizes) == 0:
		return fmt.Errorf("-%s needs a hidden layer (-hidden): a linear scorer has no body", map[bool]string{true: "freeze body", false: "adapter"}[o.arm.freeze])
	}
	return nil
}

// loadInit loads -init's model: a model saved by -out, through deploy.Load, of -dtype's dtype.
// Its features are checked against the data's by checkFeatures; its hidden layers become the
// runs'.
func (o *options) loadInit(all *data.Dataset) error {
	if o.initPath == "" {
		return nil
	}
	s, err := deploy.Load(o.initPath)
	if err != nil {
		return fmt.Errorf("-init %s: %w", o.initPath, deploy.ExplainLoad(o.initPath, err))
	}
	defer s.Close()
	m, ok := s.Model().(*nn.MLP)
	if !ok {
		return fmt.Errorf("-init %s: a %T, not an MLP", o.initPath, s.Model())
	}
	if m.Dtype() != o.modelDtype {
		return fmt.Errorf("-init %s: the model is %v, the runs -dtype %v: give -dtype %v", o.initPath, m.Dtype(), o.modelDtype, m.Dtype())
	}
	b, err := os.ReadFile(s.ModelPath())
	if err != nil {
		return fmt.Errorf("-init %s: %w", o.initPath, err)
	}
	sum := sha256.Sum256(b)
	ps := m.Params()
	var hidden []int
	for k := 0; k+2 < len(ps); k += 2 {
		hidden = append(hidden, ps[k].Value.Shape()[1])
	}
	base, err := nn.Transfer(m, nn.TransferConfig{Body: len(hidden) + 1}) // a copy, every layer trainable
	if err != nil {
		return fmt.Errorf("-init %s: %w", o.initPath, err)
	}
	in := &initFrom{path: o.initPath, sha256: hex.EncodeToString(sum[:]), base: base, features: s.Features(),
		std: s.Standardizer(), hidden: hidden}
	task := all.Task()
	var names []string // the data's classes or labels, nil for binary data
	switch {
	case all.Labels != nil:
		names = all.Labels
	case all.Classes != nil:
		names = all.Classes
	}
	op := s.OperatingPoint()
	in.whole = max(1, len(op.Classes)) == task.K() && slices.Equal(op.Classes, names) && op.Multilabel == (all.Labels != nil)
	if (o.arm.freeze || o.arm.rank > 0) && len(hidden) == 0 {
		return fmt.Errorf("-init %s: a linear scorer has no body to freeze or adapt", o.initPath)
	}
	o.arm.init, o.hiddenSizes = in, hidden
	return nil
}

// checkFeatures reports, as an error naming the first few and how many, the features of the
// data (after encoding, for raw tables) that differ from -init's model's, in order.
func (in *initFrom) checkFeatures(features []string) error {
	if slices.Equal(in.features, features) {
		return nil
	}
	var diffs []string
	n := 0
	for j := range max(len(in.features), len(features)) {
		model, dat := "(none)", "(none)"
		if j < len(in.features) {
			model = strconv.Quote(in.features[j])
		}
		if j < len(features) {
			dat = strconv.Quote(features[j])
		}
		if model == dat {
			continue
		}
		if n++; n <= 3 {
			diffs = append(diffs, fmt.Sprintf("feature %d is %s in the model, %s in the data", j+1, model, dat))
		}
	}
	more := ""
	if n > 3 {
		more = ", …"
	}
	return fmt.Errorf("-init %s: the model's features are not the data's: the model takes %d, the data has %d, and %d of them differ (%s%s)",
		in.path, len(in.features), len(features), n, strings.Join(diffs, "; "), more)
}

// model builds the arm's initial model for the split sp (experiment.Search.Init).
func (o *options) model(sp *experiment.Split, outputs int) (nn.Model, error) {
	var base *nn.MLP
	var err error
	if in := o.arm.init; in != nil {
		if base, err = in.restandardized(sp.Std); err != nil {
			return nil, err
		}
	} else if base, err = nn.NewMLP(nn.MLPConfig{In: sp.Train.Cols, Hidden: o.hiddenSizes, Dtype: o.modelDtype,
		Outputs: outputs, Seed: sp.Seed}); err != nil {
		return nil, err
	}
	cfg := nn.TransferConfig{Body: len(o.hiddenSizes) + 1, Seed: sp.Seed} // every layer kept
	if o.arm.init != nil && !o.arm.init.whole {
		cfg.Body, cfg.Outputs = len(o.hiddenSizes), outputs // its body under a new output layer
	}
	if o.arm.freeze {
		cfg.Freeze = len(o.hiddenSizes)
	}
	if o.arm.rank > 0 {
		cfg.Rank = o.arm.rank
		for k := range o.hiddenSizes {
			cfg.Adapt = append(cfg.Adapt, k)
		}
	}
	return nn.Transfer(base, cfg)
}

// restandardized returns a copy of the base whose first layer takes the features standardised
// by st instead of by the model's own standardisation: with the model's means m₀ and
// deviations s₀ and the split's m and s, a feature x standardises to z = (x − m)/s, and
// (x − m₀)/s₀ = z·sᵢ/s₀ᵢ + (mᵢ − m₀ᵢ)/s₀ᵢ, so the first layer's weight W (n × h) and bias b become
//
//	W'ᵢⱼ = Wᵢⱼ·sᵢ/s₀ᵢ,   b'ⱼ = bⱼ + Σᵢ Wᵢⱼ·(mᵢ − m₀ᵢ)/s₀ᵢ,   i = 1…n, j = 1…h,
//
// and the copy scores the split's rows as the saved model scores them. With the same
// standardisation (the same data and split seed) the copy holds the saved bits.
func (in *initFrom) restandardized(st data.Standardizer) (*nn.MLP, error) {
	base, err := nn.Transfer(in.base, nn.TransferConfig{Body: len(in.hidden) + 1})
	if err != nil {
		return nil, err
	}
	if slices.Equal(st.Mean, in.std.Mean) && slices.Equal(st.Std, in.std.Std) {
		return base, nil
	}
	ps := base.Params()
	w, b := ps[0].Value, ps[1].Value
	n, h := w.Shape()[0], w.Shape()[1]
	if len(st.Mean) != n || len(st.Std) != n {
		return nil, fmt.Errorf("-init %s: the split standardises %d features, the model takes %d", in.path, len(st.Mean), n)
	}
	switch wd := w.Data().(type) {
	case []float64:
		restandardize(wd, b.Data().([]float64), n, h, st, in.std)
	case []float32:
		restandardize(wd, b.Data().([]float32), n, h, st, in.std)
	}
	return base, nil
}

// restandardize rewrites the weight w (n × h, row-major) and bias b of a first layer trained on
// the standardisation old to take rows standardised by st (see restandardized), in float64.
func restandardize[T float32 | float64](w, b []T, n, h int, st, old data.Standardizer) {
	for j := range h {
		shift := float64(b[j])
		for i := range n {
			shift += float64(w[i*h+j]) * (st.Mean[i] - old.Mean[i]) / old.Std[i]
		}
		b[j] = T(shift)
	}
	for i := range n {
		scale := st.Std[i] / old.Std[i]
		for j := range h {
			w[i*h+j] = T(float64(w[i*h+j]) * scale)
		}
	}
}

// count sets the arm's parameter counts from a model it built.
func (a *arm) count(m nn.Model) {
	a.trainable, a.total = 0, 0
	for _, p := range m.Params() {
		n := p.Value.Shape().TotalSize()
		a.total += n
		if !p.Frozen {
			a.trainable += n
		}
	}
}

// describe is what the table's model line says of the arm after the architecture: where the
// model started, what trains, and how many parameters.
func (a *arm) describe() string {
	var parts []string
	switch {
	case a.init != nil && a.init.whole:
		parts = append(parts, "from "+a.init.path)
	case a.init != nil:
		parts = append(parts, "from "+a.init.path+"'s body under a new output layer")
	}
	switch {
	case a.freeze && a.init == nil:
		parts = append(parts, "random body frozen")
	case a.freeze:
		parts = append(parts, "body frozen")
	case a.rank > 0 && a.init == nil:
		parts = append(parts, fmt.Sprintf("LoRA adapters of rank %d on the hidden layers of random frozen weights", a.rank))
	case a.rank > 0:
		parts = append(parts, fmt.Sprintf("LoRA adapters of rank %d on the hidden layers, their weights frozen", a.rank))
	default:
		parts = append(parts, "everything trained")
	}
	lead := " " // "MLP 30→64→1 from …", "MLP 30→64→1, random body frozen"
	if a.init == nil {
		lead = ", "
	}
	return fmt.Sprintf("%s%s (%s of %s parameters trained)", lead, strings.Join(parts, ", "), thousands(a.trainable), thousands(a.total))
}

// thousands writes n with commas between groups of three digits: 2,049.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for k := len(s) - 3; k > 0 && s[k-1] != '-'; k -= 3 {
		s = s[:k] + "," + s[k:]
	}
	return s
}
