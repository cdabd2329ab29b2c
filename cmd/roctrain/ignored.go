package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/runname"
	"github.com/rocops/rocops/train"
)

// checkIgnored refuses a flag that the runs would accept and ignore: -warmup when no run of
// -losses is a "+wu" run, -lr when every run searches learning rates of its own (aucm, PESG's,
// or the one of aucm:lr=η), and -diagnose with -plot "" and no -json, whose diagnostics would
// be computed and shown nowhere. Only flags given on the command line count.
func (o *options) checkIgnored() error {
	warmup, ownRates := false, len(o.runs) > 0
	for _, r := range o.runs {
		warmup = warmup || strings.HasSuffix(r.name, runname.WarmupSuffix)
		ownRates = ownRates && r.rates != nil
	}
	switch {
	case o.given["warmup"] && !warmup:
		return fmt.Errorf("-warmup %d sets the cross-entropy warm-up of the %q runs, and -losses %s has none (such as sqhinge%s)",
			o.warmup, runname.WarmupSuffix, o.losses, runname.WarmupSuffix)
	case o.given["lr"] && ownRates:
		return fmt.Errorf("-lr sets the learning rates of the Adam runs, and every run of -losses %s searches its own "+
			"(aucm: PESG's %s; aucm:lr=η fixes one)", o.losses, rateSet(train.PESGRates))
	case o.diagnose && o.plot == "" && !o.json:
		return errors.New(`-diagnose with -plot "" and no -json: the diagnostics would be shown nowhere ` +
			`(they are -json's "diagnostics" and the PNG beside -plot)`)
	}
	return nil
}

// checkBatch refuses a -batch too small for a batch of task t to hold one row of every class
// (k rows) or a 1 and a 0 of every label (2k rows), which every run would fail on.
func (o *options) checkBatch(t rocops.Task) error {
	switch k := t.K(); {
	case t.Kind() == rocops.Multiclass && o.batch < k:
		return fmt.Errorf("-batch %d cannot hold one row of each of the %d classes; set -batch ≥ %d", o.batch, k, k)
	case t.Kind() == rocops.Multilabel && o.batch < 2*k:
		return fmt.Errorf("-batch %d cannot hold a 1 and a 0 of each of the %d labels; set -batch ≥ %d", o.batch, k, 2*k)
	}
	return nil
}
