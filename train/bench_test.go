package train

import (
	"testing"

	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/ops/pairwise"
)

// BenchmarkStep times one training step — forward, backward and Adam update — of an MLP
// 30→64→1 on a batch of 1024 rows with 10% positives, per loss. The target: the KDE and
// squared-hinge steps cost at most 1.10× the cross-entropy step.
//
// Every step starts from the same initial weights (restored with the timer stopped): gonum's
// matrix product skips zero entries, so the cost of the network's own passes depends on how
// many ReLUs are off, and steps taken along each loss's own training path would compare the
// paths rather than the losses.
func BenchmarkStep(b *testing.B) {
	const batch, in = 1024, 30
	ds := blobs(b, 4*batch, in, 0.1, 1, 1)
	idx := make([]int, batch)
	for i := range idx {
		idx[i] = i
	}
	for _, l := range []Loss{
		CrossEntropy{},
		KDE{Config: kdequantile.Config{Alpha: 0.1}},
		Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}},
		Pairwise{Config: pairwise.Config{Surrogate: pairwise.Logistic}},
	} {
		name := l.String()
		if _, ok := l.(KDE); ok {
			name = "kde"
		}
		b.Run("loss="+name, func(b *testing.B) {
			m, err := nn.NewMLP(nn.MLPConfig{In: in, Hidden: []int{64}, Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			st, err := newStep(m, l, batch, in, Config{Optimizer: Adam, LearningRate: 1e-3})
			if err != nil {
				b.Fatal(err)
			}
			defer st.close()
			init, err := nn.Snapshot(m)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				if err := nn.Restore(m, init); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, err := st.run(ds, idx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
