package train

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"gorgonia.org/tensor"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/internal/frame"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/aucm"
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
// nn.Write and its PESG state with SavePESGState, both loaded into a new model and optimiser
// (built from other weights, another learning rate and another reference draw, all replaced)
// and trained 1 more epoch, ends bit for bit where 3 epochs straight end: every weight and
// every field of the state. Decay epochs 2 and 3 make the resumed epoch one that decays,
// counted on from the saved Epochs, and momentum and EpochDecay make every buffer matter.
func TestPESGStateResumeFromDisk(t *testing.T) {
	ds := classBlobs(t, 240, 4, []float64{1, 1, 1}, 1.5, 8)
	set := DefaultPESG()
	set.DecayEpochs, set.DecayFactor = []int{2, 3}, 4
	epochs := [][][]int{stratifiedBatches(ds, 10, 1), stratifiedBatches(ds, 10, 2), stratifiedBatches(ds, 10, 3)}
	newRun := func(seed uint64, lr float64) (nn.Model, *aucmLoss, step) {
		m := classMLP(t, 4, 3, tensor.Float64, seed)
		var sizes []int
		for _, p := range m.Params() {
			sizes = append(sizes, p.Value.Len())
		}
		l := &aucmLoss{cfg: aucm.Config{Task: rocops.Classes(3)}, opt: newPESG(set, lr, 1, sizes, 3, seed), task: rocops.Classes(3)}
		st, err := l.newStep(m, rocops.Classes(3), 30, 4)
		require.NoError(t, err)
		return m, l, st
	}
	train := func(l *aucmLoss, st step, batches [][]int) {
		for _, idx := range batches {
			_, err := st.run(ds, idx)
			require.NoError(t, err)
		}
		l.opt.endEpoch()
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
	require.NoError(t, SavePESGState(path, fl.opt.state()))

	resumed, rl, rst := newRun(7, 0.5)
	require.NoError(t, nn.Read(&model, resumed))
	st, err := LoadPESGState(path)
	require.NoError(t, err)
	require.NoError(t, rl.opt.resume(st))
	train(rl, rst, epochs[2])

	require.Equal(t, params(t, straight), params(t, resumed))
	require.Equal(t, sl.opt.state(), rl.opt.state())
	require.Equal(t, 3, rl.opt.state().Epochs)
	require.Equal(t, 0.1/16, rl.opt.state().LearningRate)
}

// TestPESGStateRoundTrip: the binary form of the state of a real binary run and of a 3-class
// run decodes to the same state, field for field, and encodes to the same bytes again.
func TestPESGStateRoundTrip(t *testing.T) {
	for _, ds := range []*data.Dataset{blobs(t, 120, 3, 0.3, 2, 1), classBlobs(t, 120, 3, []float64{1, 1, 1}, 2, 1)} {
		m, err := nn.NewMLP(nn.MLPConfig{In: 3, Outputs: ds.Task().K(), Seed: 1})
		require.NoError(t, err)
		var st PESGState
		set := DefaultPESG()
		set.DecayEpochs = []int{1}
		_, err = Plain(AUCM{PESG: &set, State: &st}).Fit(context.Background(), m, Config{Epochs: 2, BatchSize: 30, Progress: io.Discard}, ds, nil)
		require.NoError(t, err)
		raw, err := st.MarshalBinary()
		require.NoError(t, err)
		var back PESGState
		require.NoError(t, back.UnmarshalBinary(raw))
		require.Equal(t, st, back)
		again, err := back.MarshalBinary()
		require.NoError(t, err)
		require.Equal(t, raw, again)
	}
}

// validState is a small encodable state: k = 2, two tensors.
func validState() PESGState {
	return PESGState{
		A: []float64{0.5, 0.25}, B: []float64{0.1, 0.2}, Alpha: []float64{0.3, 0}, LearningRate: 0.01,
		Steps: 12, SinceReset: 3, Epochs: 2,
		Ref: [][]float64{{1, 2, 3}, {4}}, Acc: [][]float64{{5, 6, 7}, {8}}, Momentum: [][]float64{{-1, -2, -3}, {-4}},
	}
}

// TestPESGStateBadData: every proper prefix of a state is nn.ErrDamaged (truncated), other
// files nn.ErrNotCheckpoint, a changed byte anywhere nn.ErrDamaged (corrupt; or
// nn.ErrNotCheckpoint in the magic), a version other than 1 and 2 with a valid header checksum
// nn.ErrVersion, a byte after the state nn.ErrDamaged (trailing data), and the state that
// failed to decode is left as it was. Messages start "train: PESG state: ".
func TestPESGStateBadData(t *testing.T) {
	raw, err := validState().MarshalBinary()
	require.NoError(t, err)
	keep := validState()
	for n := range len(raw) {
		st := keep
		err := st.UnmarshalBinary(raw[:n])
		require.ErrorIs(t, err, nn.ErrDamaged, "prefix of %d bytes", n)
		require.ErrorIs(t, err, frame.ErrTruncated, "prefix of %d bytes", n)
		require.Regexp(t, "^train: PESG state: damaged checkpoint: truncated: ", err.Error())
		require.Equal(t, keep, st)
	}
	var ckpt bytes.Buffer
	m, err := nn.NewMLP(nn.MLPConfig{In: 2, Seed: 1})
	require.NoError(t, err)
	require.NoError(t, nn.Write(&ckpt, m))
	var st PESGState
	require.ErrorIs(t, st.UnmarshalBinary(ckpt.Bytes()), nn.ErrNotCheckpoint, "an nn checkpoint")
	require.ErrorIs(t, st.UnmarshalBinary([]byte(`{"A":[0]}`)), nn.ErrNotCheckpoint, "JSON")
	for i := range raw {
		bad := bytes.Clone(raw)
		bad[i] ^= 0x10
		err := st.UnmarshalBinary(bad)
		if i < len(pesgMagic) {
			require.ErrorIs(t, err, nn.ErrNotCheckpoint, "byte %d", i)
			require.NotErrorIs(t, err, nn.ErrDamaged, "byte %d", i)
			continue
		}
		require.ErrorIs(t, err, nn.ErrDamaged, "byte %d", i)
		require.ErrorIs(t, err, frame.ErrCorrupt, "byte %d", i)
	}
	v3 := bytes.Clone(raw)
	binary.LittleEndian.PutUint16(v3[len(pesgMagic):], 3)
	binary.LittleEndian.PutUint32(v3[pesgHeader-4:], crc32.Checksum(v3[:pesgHeader-4], pesgCRC))
	require.ErrorIs(t, st.UnmarshalBinary(v3), nn.ErrVersion)
	require.NotErrorIs(t, st.UnmarshalBinary(v3), nn.ErrDamaged)
	err = st.UnmarshalBinary(append(bytes.Clone(raw), 0))
	require.ErrorIs(t, err, nn.ErrDamaged)
	require.ErrorIs(t, err, frame.ErrTrailingData)

	_, err = LoadPESGState(filepath.Join(t.TempDir(), "missing"))
	require.Error(t, err)

	for name, mod := range map[string]func(*PESGState){
		"no columns":        func(s *PESGState) { s.A, s.B, s.Alpha = nil, nil, nil },
		"b of other length": func(s *PESGState) { s.B = s.B[:1] },
		"acc of other rank": func(s *PESGState) { s.Acc = s.Acc[:1] },
		"ragged momentum":   func(s *PESGState) { s.Momentum[0] = s.Momentum[0][:2] },
		"negative steps":    func(s *PESGState) { s.Steps = -1 },
	} {
		s := validState()
		mod(&s)
		_, err := s.MarshalBinary()
		require.ErrorIs(t, err, rocops.ErrConfig, name)
		require.ErrorContains(t, err, "train: invalid setting: PESG: ", name)
	}
}

// FuzzPESGState: UnmarshalBinary never panics, fails only with its three errors, and what it
// accepts MarshalBinary writes back to the same bytes (the encoding is canonical), or for a
// state of format version 1 to the version-2 bytes of the same state.
func FuzzPESGState(f *testing.F) {
	raw, err := validState().MarshalBinary()
	require.NoError(f, err)
	v1, err := os.ReadFile(filepath.Join("testdata", "pesg-v1.pesg"))
	require.NoError(f, err)
	f.Add(raw)
	f.Add(v1)
	f.Add(raw[:len(raw)/2])
	f.Add([]byte(pesgMagic))
	f.Add([]byte("ROCOPS-PARAMS"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var st PESGState
		err := st.UnmarshalBinary(data)
		if err != nil {
			known := false
			for _, e := range []error{nn.ErrNotCheckpoint, nn.ErrVersion, nn.ErrDamaged} {
				known = known || errors.Is(err, e)
			}
			require.True(t, known, "unexpected error %v", err)
			return
		}
		again, err := st.MarshalBinary()
		require.NoError(t, err)
		if binary.LittleEndian.Uint16(data[len(pesgMagic):]) == 1 {
			var back PESGState
			require.NoError(t, back.UnmarshalBinary(again))
			require.Equal(t, st, back)
			require.Equal(t, data[pesgHeader:len(data)-4], again[pesgHeader:len(again)-4-32], "version 1's payload")
			return
		}
		require.Equal(t, data, again)
	})
}
