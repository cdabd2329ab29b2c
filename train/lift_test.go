package train

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/ops/pairwise"
)

// TestForData: every registry name on every task, the recipe ForData makes of it, or the
// ErrTask it refuses it with.
func TestForData(t *testing.T) {
	binary := &data.Dataset{LabelName: "y"}
	classes := &data.Dataset{Classes: []string{"a", "b", "c"}}
	labels := &data.Dataset{Labels: []string{"p", "q"}}
	sq := pairwise.Config{Surrogate: pairwise.SquaredHinge}
	part := pairwise.Config{Surrogate: pairwise.Hinge, MaxFPR: 0.2}
	ovo := MulticlassPairwise{Config: withOvO(sq, true)}
	const refused = "refused"
	for _, c := range []struct {
		name                    string
		binary, classes, labels any // a Recipe, or refused
	}{
		{"ce", Plain{Loss: CrossEntropy{}}, Plain{}, Plain{}},
		{"sqhinge", Plain{Loss: Pairwise{Config: sq}},
			Plain{Loss: MulticlassPairwise{Config: sq}}, Plain{Loss: MultilabelPairwise{Config: sq}}},
		{"hinge:maxfpr=0.2", Plain{Loss: Pairwise{Config: part}},
			Plain{Loss: MulticlassPairwise{Config: part}}, Plain{Loss: MultilabelPairwise{Config: part}}},
		{"sqhinge:ovo", refused, Plain{Loss: ovo}, refused},
		{"kde", FineTune{Loss: KDE{Config: kdequantile.Config{Alpha: 0.1}}}, refused, refused},
		{"kde-plain", Plain{Loss: KDE{Config: kdequantile.Config{Alpha: 0.1}}}, refused, refused},
		{"kde-plain:anneal", Anneal{Point: kdequantile.Config{Alpha: 0.1}}, refused, refused},
		{"ce+kde:w=1", Plain{Loss: Weighted{{Weight: 1, Loss: CrossEntropy{}}, {Weight: 1, Loss: KDE{Config: kdequantile.Config{Alpha: 0.1}}}}}, refused, refused},
	} {
		rs, err := ParseRecipe(c.name, kdequantile.Config{Alpha: 0.1})
		require.NoError(t, err, c.name)
		for _, task := range []struct {
			ds   *data.Dataset
			want any
		}{{binary, c.binary}, {classes, c.classes}, {labels, c.labels}} {
			got, err := ForData(rs[0], task.ds)
			if task.want == refused {
				require.ErrorIs(t, err, ErrTask, "%s on %v", c.name, taskOf(task.ds))
				require.Contains(t, err.Error(), rs[0].String())
				continue
			}
			require.NoError(t, err, "%s on %v", c.name, taskOf(task.ds))
			require.Equal(t, task.want, got, "%s on %v", c.name, taskOf(task.ds))
		}
	}
	// The warm-up stays; aucm is left to its own Fit.
	got, err := ForData(Plain{Loss: Pairwise{Config: sq}, WarmupEpochs: 4}, classes)
	require.NoError(t, err)
	require.Equal(t, Plain{Loss: MulticlassPairwise{Config: sq}, WarmupEpochs: 4}, got)
	rs, err := ParseRecipe("aucm", kdequantile.Config{Alpha: 0.1})
	require.NoError(t, err)
	got, err = ForData(rs[0], classes)
	require.NoError(t, err)
	require.Equal(t, rs[0], got)
}

func TestMetricFor(t *testing.T) {
	classes := &data.Dataset{Classes: []string{"a", "b", "c"}}
	ovr := []Recipe{Plain{Loss: MulticlassPairwise{}}}
	ovo := []Recipe{Plain{Loss: MulticlassPairwise{Config: pairwise.Config{OvO: true}}}}
	require.Equal(t, PartialAUC(0.1), MetricFor(ovo, &data.Dataset{}, PartialAUC(0.1)))
	require.Equal(t, MacroAUC(metrics.OvR), MetricFor(ovr, classes, PartialAUC(0.1)))
	require.Equal(t, MacroAUC(metrics.OvO), MetricFor(ovo, classes, PartialAUC(0.1)))
	require.Equal(t, MacroAUC(metrics.OvR), MetricFor(ovr, &data.Dataset{Labels: []string{"p"}}, PartialAUC(0.1)))
}
