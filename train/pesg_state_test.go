package train

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/aucm"
	"github.com/rocops/rocops/optim"
)

// stratifiedBatches returns an epoch's batches of ds's rows for seed: every class's rows in a
// random order, dealt out so that each batch holds per rows of every class (as many batches
// as the smallest class fills; the rest of the rows sit the epoch out).
func stratifiedBatches(ds *data.Dataset, per int, seed uint64) [][]int {
	rng := rand.New(rand.NewPCG(seed, 5))
	byClass := make([][]int, len(ds.Classes))
	for i, y := range ds.Y {
		byClass[int(y)] = append(byClass[int(y)], i)
	}
	nb := len(ds.Y)
	for _, rows := range byClass {
		rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		nb = min(nb, len(rows)/per)
	}
	batches := make([][]int, nb)
	for b := range batches {
		for _, rows := range byClass {
			batches[b] = append(batches[b], rows[b*per:(b+1)*per]...)
		}
	}
	return batches
}

// TestPESGStateResumeFromDisk: a 3-class AUC-M run trained 2 epochs, its model saved with
// nn.Write and its PESG state with optim.SavePESGState, both loaded into a new model and optimiser
// (built from other weights, another learning rate and another reference draw, all replaced)
// and trained 1 more epoch, ends bit for bit where 3 epochs straight end: every weight and
// every field of the state. Decay epochs 2 and 3 make the resumed epoch one that decays,
// counted on from the saved Epochs, and momentum and EpochDecay make every buffer matter.
func TestPESGStateResumeFromDisk(t *testing.T) {
	ds := classBlobs(t, 240, 4, []float64{1, 1, 1}, 1.5, 8)
	set := optim.DefaultPESG()
	set.DecayEpochs, set.DecayFactor = []int{2, 3}, 4
	epochs := [][][]int{stratifiedBatches(ds, 10, 1), stratifiedBatches(ds, 10, 2), stratifiedBatches(ds, 10, 3)}
	newRun := func(seed uint64, lr float64) (nn.Model, *aucmLoss, step) {
		m := classMLP(t, 4, 3, tensor.Float64, seed)
		var sizes []int
		for _, p := range m.Params() {
			sizes = append(sizes, p.Value.Len())
		}
		l := &aucmLoss{cfg: aucm.Config{Task: rocops.Classes(3)}, opt: optim.NewPESGRun(set, lr, 1, sizes, 3, seed), task: rocops.Classes(3)}
		st, err := l.newStep(m, rocops.Classes(3), 30, 4)
		require.NoError(t, err)
		return m, l, st
	}
	train := func(l *aucmLoss, st step, batches [][]int) {
		for _, idx := range batches {
			_, err := st.run(ds, idx)
			require.NoError(t, err)
		}
		l.opt.EndEpoch()
	}

	straight, sl, sst := newRun(1, 0.1)
	for _, b := range epochs {
		train(sl, sst, b)
	}

	first, fl, fst := newRun(1, 0.1)
	train(fl, fst, epochs[0])
	train(fl, fst, epochs[1])
	var model bytes.Buffer
	require.NoError(t, nn.Write(&model, first))
	path := filepath.Join(t.TempDir(), "run.pesg")
	require.NoError(t, optim.SavePESGState(path, fl.opt.State()))

	resumed, rl, rst := newRun(7, 0.5)
	require.NoError(t, nn.Read(&model, resumed))
	st, err := optim.LoadPESGState(path)
	require.NoError(t, err)
	require.NoError(t, rl.opt.Resume(st))
	train(rl, rst, epochs[2])

	require.Equal(t, params(t, straight), params(t, resumed))
	require.Equal(t, sl.opt.State(), rl.opt.State())
	require.Equal(t, 3, rl.opt.State().Epochs)
	require.Equal(t, 0.1/16, rl.opt.State().LearningRate)
}

// TestPESGStateRoundTrip: the binary form of the state of a real binary run and of a 3-class
// run decodes to the same state, field for field, and encodes to the same bytes again.
func TestPESGStateRoundTrip(t *testing.T) {
	for _, ds := range []*data.Dataset{blobs(t, 120, 3, 0.3, 2, 1), classBlobs(t, 120, 3, []float64{1, 1, 1}, 2, 1)} {
		m, err := nn.NewMLP(nn.MLPConfig{In: 3, Outputs: ds.Task().K(), Seed: 1})
		require.NoError(t, err)
		var st optim.PESGState
		set := optim.DefaultPESG()
		set.DecayEpochs = []int{1}
		_, err = Plain(AUCM{PESG: &set, State: &st}).Fit(context.Background(), m, Config{Epochs: 2, BatchSize: 30, Progress: io.Discard}, ds, nil)
		require.NoError(t, err)
		raw, err := st.MarshalBinary()
		require.NoError(t, err)
		var back optim.PESGState
		require.NoError(t, back.UnmarshalBinary(raw))
		require.Equal(t, st, back)
		again, err := back.MarshalBinary()
		require.NoError(t, err)
		require.Equal(t, raw, again)
	}
}
