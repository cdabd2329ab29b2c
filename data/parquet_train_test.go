package data_test

import (
	"context"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/train"
)

// TestParquetTrainsAsCSV: a Parquet file and a CSV of the same numbers train, split and
// standardised alike, to bit-identical histories and weights.
func TestParquetTrainsAsCSV(t *testing.T) {
	pq, csvPath := data.WriteMixed(t, t.TempDir(), 3000, 700, 5)
	fit := func(path string) (*train.History, []float64) {
		ds, err := data.Load(path, data.CSVConfig{Label: "class"})
		require.NoError(t, err)
		tr, val, _, _, err := data.SplitStandardized(ds, data.SplitConfig{Seed: 2})
		require.NoError(t, err)
		model, err := nn.NewMLP(nn.MLPConfig{In: tr.Cols, Hidden: []int{8}, Seed: 3})
		require.NoError(t, err)
		trainer, err := train.New(model, train.Config{Epochs: 3, BatchSize: 64, Seed: 4, Progress: io.Discard})
		require.NoError(t, err)
		h, err := trainer.Fit(context.Background(), tr, val)
		require.NoError(t, err)
		scores, err := nn.Scores(model, val.X, val.Rows)
		require.NoError(t, err)
		return h, scores
	}
	hc, sc := fit(csvPath)
	hp, sp := fit(pq)
	require.Len(t, hc.Epochs, 3)
	require.Equal(t, hc, hp)
	require.Equal(t, sc, sp)
}
