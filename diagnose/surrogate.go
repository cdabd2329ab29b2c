package diagnose

import (
	"cmp"
	"fmt"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/internal/check"
	"github.com/rocops/rocops/ops/pairwise"
)

// CheckSurrogate returns the error every diagnostic that takes a pairwise.Config returns for
// cfg, before it looks at its other input: rocops.ErrConfig, wrapping the error of
// cfg.Validate for an unknown surrogate, a bad margin, Pairs, MaxFPR or MinTPR, or naming a
// partial-AUC cut (MaxFPR ≠ 0 or MinTPR ≠ 0), since the diagnostics use only cfg.Surrogate and
// cfg.Margin and weigh all pairs; nil otherwise. A trainer can call it before training to
// refuse such a configuration up front.
func CheckSurrogate(cfg pairwise.Config) error {
	_, err := margin(cfg)
	return err
}

// margin validates cfg as CheckSurrogate does and returns the effective margin m.
func margin(cfg pairwise.Config) (float64, error) {
	if err := cfg.Validate(); err != nil {
		return 0, fmt.Errorf("%s: %w: surrogate: %w", pkg, rocops.ErrConfig, err)
	}
	if cfg.MaxFPR != 0 || cfg.MinTPR != 0 {
		return 0, check.Errorf(pkg, rocops.ErrConfig, "partial-AUC cut MaxFPR = %v, MinTPR = %v not supported; the "+
			"diagnostics are those of the full loss, MaxFPR = MinTPR = 0", cfg.MaxFPR, cfg.MinTPR)
	}
	return cmp.Or(cfg.Margin, 1), nil
}
