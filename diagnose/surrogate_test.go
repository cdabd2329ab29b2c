package diagnose_test

import (
	"math"
	"strings"
	"testing"

	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/diagnose"
	"github.com/rocops/rocops/internal/testbatch"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/pairwise"
	"github.com/stretchr/testify/require"
)

// configEntries calls every diagnostic that takes a pairwise.Config on valid input of its own,
// with the configuration given.
func configEntries(t *testing.T) map[string]func(cfg pairwise.Config) error {
	t.Helper()
	const sev = 0.1
	scores, labels := testbatch.Spread(4, 1, 40, 0.4, 1)
	bm, bx, by := severeSetup(t, tensor.Float64)
	cm, cx, cy := classSetup(t)
	cs, err := nn.Scores(cm, cx, len(cy))
	require.NoError(t, err)
	lm, lx, ly := labelSetup(t)
	ls, err := nn.Scores(lm, lx, len(ly)/3)
	require.NoError(t, err)
	edges := []float64{-5, 0, 5}
	return map[string]func(pairwise.Config) error{
		"CheckSurrogate": diagnose.CheckSurrogate,
		"WeightShares": func(cfg pairwise.Config) error {
			_, err := binWeightShares(scores, labels, cfg, edges)
			return err
		},
		"Project": func(cfg pairwise.Config) error {
			_, err := binProject(scores, labels, scores, cfg)
			return err
		},
		"SevereDirection": func(cfg pairwise.Config) error {
			_, err := binSevereDirection(bm, bx, by, cfg, sev)
			return err
		},
		"SevereLoss": func(cfg pairwise.Config) error {
			_, _, err := diagnose.SevereLoss(scores, scores, labels, cfg, sev)
			return err
		},
		"MulticlassWeightShares": func(cfg pairwise.Config) error {
			_, _, err := classCmp(3, metrics.OvO).WeightShares(cs, cy, cfg, edges)
			return err
		},
		"MulticlassSevereDirection": func(cfg pairwise.Config) error {
			_, err := classCmp(3, metrics.OvR).SevereDirection(cm, cx, cy, cfg, sev)
			return err
		},
		"MulticlassProject": func(cfg pairwise.Config) error {
			_, err := classCmp(3, metrics.OvR).Project(cs, cy, cs, cfg)
			return err
		},
		"MultilabelWeightShares": func(cfg pairwise.Config) error {
			_, _, err := labelCmp(3).WeightShares(ls, ly, cfg, edges)
			return err
		},
		"MultilabelSevereDirection": func(cfg pairwise.Config) error {
			_, err := labelCmp(3).SevereDirection(lm, lx, ly, cfg, sev)
			return err
		},
		"MultilabelProject": func(cfg pairwise.Config) error {
			_, err := labelCmp(3).Project(ls, ly, ls, cfg)
			return err
		},
	}
}

// TestPartialRefused: every diagnostic that takes a pairwise.Config refuses a partial-AUC cut
// with rocops.ErrConfig naming the partial-AUC cut, MaxFPR and MinTPR, and takes the same
// configuration without the cut; a cut out of range is rocops.ErrConfig wrapping pairwise's
// error.
func TestPartialRefused(t *testing.T) {
	full := pairwise.Config{Surrogate: pairwise.SquaredHinge, Margin: 0.5}
	cut := func(maxFPR, minTPR float64) pairwise.Config {
		c := full
		c.MaxFPR, c.MinTPR = maxFPR, minTPR
		return c
	}
	for name, call := range configEntries(t) {
		require.NoError(t, call(full), "%s, no cut", name)
		for _, cfg := range []pairwise.Config{cut(0.1, 0), cut(0, 0.2), cut(0.1, 0.2), cut(1, 0)} {
			err := call(cfg)
			require.ErrorIs(t, err, rocops.ErrConfig, "%s, MaxFPR %v, MinTPR %v: %v; want the partial-AUC cut's rocops.ErrConfig", name, cfg.MaxFPR, cfg.MinTPR, err)
			require.True(t, isCut(err), "%s, MaxFPR %v, MinTPR %v: %v; want the partial-AUC cut's rocops.ErrConfig", name, cfg.MaxFPR, cfg.MinTPR, err)
			msg := err.Error()
			require.True(t, strings.HasPrefix(msg, "diagnose: "), "%s: message %q does not name MaxFPR and MinTPR", name, msg)
			require.Contains(t, msg, "MaxFPR", "%s: message %q does not name MaxFPR and MinTPR", name, msg)
			require.Contains(t, msg, "MinTPR", "%s: message %q does not name MaxFPR and MinTPR", name, msg)
		}
		for _, cfg := range []pairwise.Config{cut(1.5, 0), cut(0, 1), cut(math.NaN(), 0)} {
			err := call(cfg)
			require.ErrorIs(t, err, rocops.ErrConfig, "%s, MaxFPR %v, MinTPR %v: %v; want rocops.ErrConfig naming the setting", name, cfg.MaxFPR, cfg.MinTPR, err)
			require.False(t, isCut(err), "%s, MaxFPR %v, MinTPR %v: %v; want rocops.ErrConfig naming the setting", name, cfg.MaxFPR, cfg.MinTPR, err)
			require.False(t, !strings.Contains(err.Error(), "MaxFPR = ") && !strings.Contains(err.Error(), "MinTPR = "), "%s, MaxFPR %v, MinTPR %v: %v; want rocops.ErrConfig naming the setting", name, cfg.MaxFPR, cfg.MinTPR, err)
		}
	}
}

// isCut reports whether err is the refusal of a partial-AUC cut.
func isCut(err error) bool { return strings.Contains(err.Error(), "partial-AUC cut") }

// FuzzCheckSurrogate: CheckSurrogate is nil exactly for a configuration pairwise accepts without
// a cut, the cut's rocops.ErrConfig for one it accepts with a cut and rocops.ErrConfig wrapping
// pairwise's error otherwise, and every
// diagnostic taking a configuration (here WeightShares and Project on a valid batch) fails
// with the same error for it.
func FuzzCheckSurrogate(f *testing.F) {
	f.Add(uint8(1), 0.0, 0.0, 0.0, 0)
	f.Add(uint8(2), 1.0, 0.1, 0.0, 0)
	f.Add(uint8(0), 0.5, 0.0, 0.3, 8)
	f.Add(uint8(9), 1.0, 0.0, 0.0, 0)
	f.Add(uint8(1), -1.0, 2.0, 0.0, -1)
	scores, labels := testbatch.Spread(4, 1, 40, 0.4, 1)
	edges := []float64{-5, 0, 5}
	f.Fuzz(func(t *testing.T, s uint8, margin, maxFPR, minTPR float64, pairs int) {
		cfg := pairwise.Config{Surrogate: pairwise.Surrogate(s), Margin: margin, MaxFPR: maxFPR, MinTPR: minTPR, Pairs: pairs}
		err := diagnose.CheckSurrogate(cfg)
		verr := cfg.Validate()
		switch {
		case verr != nil:
			require.ErrorIs(t, err, rocops.ErrConfig, "%+v: %v; want rocops.ErrConfig wrapping %v", cfg, err, verr)
			require.True(t, strings.HasSuffix(err.Error(), ": "+verr.Error()), "%+v: %v; want rocops.ErrConfig wrapping %v", cfg, err, verr)
		case maxFPR != 0 || minTPR != 0:
			require.ErrorIs(t, err, rocops.ErrConfig, "%+v: %v; want the partial-AUC cut's rocops.ErrConfig", cfg, err)
			require.True(t, isCut(err), "%+v: %v; want the partial-AUC cut's rocops.ErrConfig", cfg, err)
		default:
			require.NoError(t, err, "%+v: %v; want nil", cfg, err)
		}
		_, werr := binWeightShares(scores, labels, cfg, edges)
		_, perr := binProject(scores, labels, scores, cfg)
		for _, got := range []error{werr, perr} {
			require.Equal(t, got == nil, err == nil, "%+v: CheckSurrogate %v, a diagnostic %v", cfg, err, got)
			require.False(t, err != nil && got.Error() != err.Error(), "%+v: CheckSurrogate %v, a diagnostic %v", cfg, err, got)
		}
	})
}
