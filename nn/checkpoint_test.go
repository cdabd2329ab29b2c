package nn

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"gorgonia.org/tensor"

	"github.com/rocops/rocops/internal/atomicfile"
	"github.com/rocops/rocops/internal/frame"
	"github.com/stretchr/testify/require"
)

func newMLP(t *testing.T, cfg MLPConfig) *MLP {
	t.Helper()
	m, err := NewMLP(cfg)
	require.NoError(t, err)
	return m
}

func encoded(t *testing.T, m Model) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, m))
	return buf.Bytes()
}

// sameParams reports whether a and b hold bit-identical parameters.
func sameParams(t *testing.T, a, b Model) bool {
	t.Helper()
	return fmt.Sprint(paramBits(t, a)) == fmt.Sprint(paramBits(t, b))
}

// readFails reads data into a fresh model built by target and checks that it fails with
// want and leaves the model unchanged.
func readFails(t *testing.T, data []byte, target func() Model, wants ...error) {
	t.Helper()
	m := target()
	before := paramBits(t, m)
	err := Read(bytes.NewReader(data), m)
	// A damaged file, whatever the damage, is ErrDamaged; the kind is in the message and, for
	// these tests, in frame's sentinel beside it. Nothing else is ErrDamaged.
	damage := false
	for _, want := range wants {
		require.ErrorIs(t, err, want, "error %v, want %v", err, want)
		damage = damage || errors.Is(want, frame.ErrTruncated) || errors.Is(want, frame.ErrCorrupt) || errors.Is(want, frame.ErrTrailingData)
	}
	require.Equal(t, damage, errors.Is(err, ErrDamaged), "error %v: ErrDamaged %v, want %v", err, errors.Is(err, ErrDamaged), damage)
	require.True(t, strings.HasPrefix(err.Error(), "nn: "), "error %q does not start with the package name", err)
	require.Equal(t, fmt.Sprint(before), fmt.Sprint(paramBits(t, m)), "a failed Read changed the model")
}

// plainModel hides the Describer of the model it wraps.
type plainModel struct{ Model }

func TestCheckpointRoundTrip(t *testing.T) {
	for _, dt := range dtypes {
		for _, wrap := range []struct {
			name string
			f    func(Model) Model
		}{{"mlp", func(m Model) Model { return m }}, {"no-describer", func(m Model) Model { return plainModel{m} }}} {
			t.Run(fmt.Sprintf("%v/%s", dt, wrap.name), func(t *testing.T) {
				src := wrap.f(newMLP(t, MLPConfig{In: 4, Hidden: []int{5, 3}, Seed: 1, Dtype: dt}))
				dst := wrap.f(newMLP(t, MLPConfig{In: 4, Hidden: []int{5, 3}, Seed: 2, Dtype: dt}))
				require.False(t, sameParams(t, src, dst), "seeds 1 and 2 gave the same parameters")
				path := filepath.Join(t.TempDir(), "model.ckpt")
				require.NoError(t, Save(path, src))
				require.NoError(t, Load(path, dst))
				require.True(t, sameParams(t, src, dst), "loaded parameters differ from the saved ones")
				require.True(t, bytes.Equal(encoded(t, src), encoded(t, dst)), "the loaded model does not write the same checkpoint")
				file, err := os.ReadFile(path)
				require.NoError(t, err)
				require.True(t, bytes.Equal(file, encoded(t, src)), "Save and Write produce different bytes")
			})
		}
	}
}

func TestCheckpointRoundTripKeepsSpecialValues(t *testing.T) {
	m := newMLP(t, MLPConfig{In: 2, Hidden: []int{2}})
	special := []float64{math.Copysign(0, -1), math.SmallestNonzeroFloat64, math.MaxFloat64, math.NaN()}
	copy(m.Params()[0].Value.Data().([]float64), special)
	dst := newMLP(t, MLPConfig{In: 2, Hidden: []int{2}, Seed: 5})
	require.NoError(t, Read(bytes.NewReader(encoded(t, m)), dst))
	require.True(t, sameParams(t, m, dst), "−0, a subnormal, MaxFloat64 or NaN did not survive bit for bit")
}

// TestCheckpointLayout writes the documented format by hand for a small model with known
// values and compares it with Write's output byte for byte.
func TestCheckpointLayout(t *testing.T) {
	m, err := NewMLP(MLPConfig{In: 2})
	require.NoError(t, err)
	copy(m.Params()[0].Value.Data().([]float64), []float64{1.5, -2})
	copy(m.Params()[1].Value.Data().([]float64), []float64{0.25})

	le := binary.LittleEndian
	var p bytes.Buffer
	put := func(v any) {
		require.NoError(t, binary.Write(&p, le, v))
	}
	put(uint8(2)) // float64
	put(uint16(len("Linear(in=2)")))
	p.WriteString("Linear(in=2)")
	put(uint32(2))
	put(uint16(len("layer0.weight")))
	p.WriteString("layer0.weight")
	put(uint8(2))
	put([]uint32{2, 1})
	put([]float64{1.5, -2})
	put(uint16(len("layer0.bias")))
	p.WriteString("layer0.bias")
	put(uint8(1))
	put(uint32(1))
	put(0.25)

	got, want := encoded(t, m), seal(p.Bytes(), 1)
	require.True(t, bytes.Equal(got, want), "Write gave\n%x\nthe documented layout is\n%x", got, want)
}

// seal frames a payload as the documented format does: magic, version, payload size, header
// CRC-32C, payload, file CRC-32C.
func seal(payload []byte, version uint16) []byte {
	table := crc32.MakeTable(crc32.Castagnoli)
	le := binary.LittleEndian
	b := []byte("ROCOPS-PARAMS")
	b = le.AppendUint16(b, version)
	b = le.AppendUint64(b, uint64(len(payload)))
	b = le.AppendUint32(b, crc32.Checksum(b, table))
	b = append(b, payload...)
	return le.AppendUint32(b, crc32.Checksum(b, table))
}

// payloadOf returns the payload of a well-formed checkpoint.
func payloadOf(data []byte) []byte { return data[27 : len(data)-4] }

func TestReadRejectsTruncation(t *testing.T) {
	cfg := MLPConfig{In: 3, Hidden: []int{2}, Seed: 1}
	data := encoded(t, newMLP(t, cfg))
	cfg.Seed = 2
	target := func() Model { return newMLP(t, cfg) }
	// Every proper prefix: inside the magic (including the empty file), the header, the
	// architecture, a name, a shape, the values, and without the file checksum.
	for n := 0; n < len(data); n++ {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) { readFails(t, data[:n], target, frame.ErrTruncated) })
	}
}

func TestReadRejectsCorruption(t *testing.T) {
	cfg := MLPConfig{In: 3, Hidden: []int{2}, Seed: 1}
	data := encoded(t, newMLP(t, cfg))
	cfg.Seed = 2
	target := func() Model { return newMLP(t, cfg) }
	for i := range data {
		// The layout decides which check sees the damage first.
		want := []error{frame.ErrCorrupt} // payload size, header CRC, payload, file CRC
		switch {
		case i < len(magic):
			want = []error{ErrNotCheckpoint}
		case i < len(magic)+2: // another version, whose header checksum also fails
			want = []error{ErrVersion, frame.ErrCorrupt}
		}
		bad := bytes.Clone(data)
		bad[i] ^= 0x5a
		t.Run(fmt.Sprintf("byte=%d", i), func(t *testing.T) { readFails(t, bad, target, want...) })
	}
}

func TestReadRejectsForeignAndTrailingData(t *testing.T) {
	cfg := MLPConfig{In: 3, Hidden: []int{2}, Seed: 1}
	data := encoded(t, newMLP(t, cfg))
	cfg.Seed = 2
	target := func() Model { return newMLP(t, cfg) }
	for _, tc := range []struct {
		name string
		data []byte
		want error
	}{
		{"text", []byte("layer0.weight 0.1 0.2\n"), ErrNotCheckpoint},
		{"png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10"), ErrNotCheckpoint},
		{"json", []byte(`{"layer0.weight": [[0.1], [0.2]]}`), ErrNotCheckpoint},
		{"one byte", []byte("R!"), ErrNotCheckpoint},
		{"similar magic", append([]byte("ROCOPS-PARAMZ"), data[13:]...), ErrNotCheckpoint},
		{"version 2", seal(payloadOf(data), 2), ErrVersion},
		{"version 0", seal(payloadOf(data), 0), ErrVersion},
		{"one more byte", append(bytes.Clone(data), 0), frame.ErrTrailingData},
		{"two checkpoints", append(bytes.Clone(data), data...), frame.ErrTrailingData},
	} {
		t.Run(tc.name, func(t *testing.T) { readFails(t, tc.data, target, tc.want) })
	}
}

// TestReadRejectsMalformedPayload seals inconsistent payloads with valid checksums, as a
// faulty writer would produce them.
func TestReadRejectsMalformedPayload(t *testing.T) {
	m, err := NewMLP(MLPConfig{In: 2})
	require.NoError(t, err)
	good := payloadOf(encoded(t, m))
	arch := 1 + 2 + len("Linear(in=2)") // dtype, architecture
	name := arch + 4 + 2 + len("layer0.weight")
	edit := func(f func(p []byte) []byte) []byte { return seal(f(bytes.Clone(good)), 1) }
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"empty payload", seal(nil, 1)},
		{"dtype code 3", edit(func(p []byte) []byte { p[0] = 3; return p })},
		{"architecture longer than the payload", edit(func(p []byte) []byte { p[1], p[2] = 0xff, 0xff; return p })},
		{"count of a million", edit(func(p []byte) []byte { binary.LittleEndian.PutUint32(p[arch:], 1e6); return p })},
		{"count of three", edit(func(p []byte) []byte { binary.LittleEndian.PutUint32(p[arch:], 3); return p })},
		{"count of one", edit(func(p []byte) []byte { binary.LittleEndian.PutUint32(p[arch:], 1); return p })},
		{"rank 0", edit(func(p []byte) []byte { p[name] = 0; return p })},
		{"dimension 0", edit(func(p []byte) []byte { binary.LittleEndian.PutUint32(p[name+1:], 0); return p })},
		{"huge dimensions", edit(func(p []byte) []byte {
			binary.LittleEndian.PutUint32(p[name+1:], math.MaxUint32)
			binary.LittleEndian.PutUint32(p[name+5:], math.MaxUint32)
			return p
		})},
		{"values cut short", edit(func(p []byte) []byte { return p[:len(p)-3] })},
	} {
		t.Run(tc.name, func(t *testing.T) {
			readFails(t, tc.data, func() Model {
				l, err := NewMLP(MLPConfig{In: 2, Seed: 9})
				require.NoError(t, err)
				return l
			}, frame.ErrCorrupt)
		})
	}
}

func TestReadRejectsOtherModels(t *testing.T) {
	saved := encoded(t, newMLP(t, MLPConfig{In: 4, Hidden: []int{5}, Seed: 1}))
	linear, err := NewMLP(MLPConfig{In: 4})
	require.NoError(t, err)
	for _, tc := range []struct {
		name   string
		data   []byte
		target func() Model
		want   error
		inMsg  string
	}{
		{"wider hidden layer", saved, func() Model { return newMLP(t, MLPConfig{In: 4, Hidden: []int{6}}) }, ErrArchitecture, `"layer0.weight" has shape (4, 5)`},
		{"fewer inputs", saved, func() Model { return newMLP(t, MLPConfig{In: 3, Hidden: []int{5}}) }, ErrArchitecture, "(3, 5)"},
		{"deeper", saved, func() Model { return newMLP(t, MLPConfig{In: 4, Hidden: []int{5, 2}}) }, ErrArchitecture, "4 parameters saved, the model has 6"},
		{"other activation", saved, func() Model { return newMLP(t, MLPConfig{In: 4, Hidden: []int{5}, Activation: Tanh}) }, ErrArchitecture, "activation=tanh"},
		{"float32 model", saved, func() Model { return newMLP(t, MLPConfig{In: 4, Hidden: []int{5}, Dtype: tensor.Float32}) }, ErrArchitecture, "float64 parameters"},
		{"model without description", saved, func() Model { return plainModel{newMLP(t, MLPConfig{In: 4, Hidden: []int{5}})} }, ErrArchitecture, `model is ""`},
		{"linear into a wider linear", encoded(t, linear), func() Model { return newMLP(t, MLPConfig{In: 5}) }, ErrArchitecture, "has shape (4, 1)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			readFails(t, tc.data, tc.target, tc.want)
			err := Read(bytes.NewReader(tc.data), tc.target())
			require.Contains(t, err.Error(), tc.inMsg, "error %q does not mention %q", err, tc.inMsg)
		})
	}
}

func TestReadReportsIOErrors(t *testing.T) {
	cfg := MLPConfig{In: 3, Hidden: []int{2}, Seed: 1}
	data := encoded(t, newMLP(t, cfg))
	errIO := errors.New("device unplugged")
	// In the header, in the payload, in the file checksum, and while checking for more data.
	for _, n := range []int{5, 20, 60, len(data) - 2, len(data)} {
		t.Run(fmt.Sprintf("after=%d", n), func(t *testing.T) {
			m := newMLP(t, MLPConfig{In: 3, Hidden: []int{2}, Seed: 2})
			before := paramBits(t, m)
			err := Read(io.MultiReader(bytes.NewReader(data[:n]), iotest.ErrReader(errIO)), m)
			require.ErrorIs(t, err, errIO, "error %v, want the reader's error", err)
			require.Equal(t, fmt.Sprint(before), fmt.Sprint(paramBits(t, m)), "a failed Read changed the model")
		})
	}
}

func TestSaveReplacesAndLeavesNoTemporaryFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "model.ckpt")
	for seed := uint64(1); seed <= 2; seed++ {
		require.NoError(t, Save(path, newMLP(t, MLPConfig{In: 3, Hidden: []int{2}, Seed: seed})))
	}
	got := newMLP(t, MLPConfig{In: 3, Hidden: []int{2}, Seed: 3})
	require.NoError(t, Load(path, got))
	require.True(t, sameParams(t, got, newMLP(t, MLPConfig{In: 3, Hidden: []int{2}, Seed: 2})), "Load did not return the last saved model")
	assertOnlyFile(t, dir, "model.ckpt")
	info, err := os.Stat(path)
	require.NoError(t, err)
	mode := info.Mode().Perm()
	require.Equal(t, fs.FileMode(0o644), mode, "checkpoint mode %v, want 0644", mode)
}

func assertOnlyFile(t *testing.T, dir, name string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	require.Equal(t, []string{name}, names, "directory holds %v, want only %s", names, name)
}

// TestInterruptedSaveKeepsOldCheckpoint makes the atomic writer fail part-way through the new
// checkpoint and after all of it (before the rename), then loads the old checkpoint.
func TestInterruptedSaveKeepsOldCheckpoint(t *testing.T) {
	cfg := MLPConfig{In: 3, Hidden: []int{4}, Seed: 1}
	old := newMLP(t, cfg)
	cfg.Seed = 2
	newer := encoded(t, newMLP(t, cfg))
	errDisk := errors.New("no space left on device")
	for _, tc := range []struct {
		name  string
		write func(io.Writer) error
	}{
		{"mid-write", func(w io.Writer) error {
			if _, err := w.Write(newer[:len(newer)/2]); err != nil {
				return err
			}
			return errDisk
		}},
		{"before the rename", func(w io.Writer) error {
			if _, err := w.Write(newer); err != nil {
				return err
			}
			return errDisk
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "model.ckpt")
			require.NoError(t, Save(path, old))
			err := atomicfile.Write(path, tc.write)
			require.ErrorIs(t, err, errDisk, "error %v, want the injected failure", err)
			cfg.Seed = 3
			got := newMLP(t, cfg)
			require.NoError(t, Load(path, got), "the old checkpoint no longer loads")
			require.True(t, sameParams(t, got, old), "the checkpoint no longer holds the old parameters")
			assertOnlyFile(t, dir, "model.ckpt")
		})
	}
}

func TestSaveFailures(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "model.ckpt")
	m := newMLP(t, MLPConfig{In: 3, Hidden: []int{2}, Seed: 1})
	require.NoError(t, Save(path, m))
	t.Run("invalid model", func(t *testing.T) {
		err := Save(path, nil)
		require.ErrorIs(t, err, ErrInput, "error %v, want ErrInput", err)
		err = Save(path, badModel{m})
		require.ErrorIs(t, err, ErrInput, "error %v, want ErrInput", err)
		got := newMLP(t, MLPConfig{In: 3, Hidden: []int{2}, Seed: 2})
		err = Load(path, got)
		require.NoError(t, err, "the previous checkpoint was damaged (%v)", err)
		require.True(t, sameParams(t, got, m), "the previous checkpoint was damaged (%v)", err)
		assertOnlyFile(t, dir, "model.ckpt")
	})
	t.Run("missing directory", func(t *testing.T) {
		missing := filepath.Join(dir, "no-such-dir", "model.ckpt")
		err := Save(missing, m)
		require.ErrorIs(t, err, fs.ErrNotExist, "error %v, want a not-exist error from nn", err)
		require.True(t, strings.HasPrefix(err.Error(), "nn: "), "error %v, want a not-exist error from nn", err)
	})
	t.Run("load missing file", func(t *testing.T) {
		err := Load(filepath.Join(dir, "nothing.ckpt"), m)
		require.ErrorIs(t, err, fs.ErrNotExist, "error %v, want a not-exist error", err)
	})
	t.Run("failing writer", func(t *testing.T) {
		errW := errors.New("broken pipe")
		err := Write(failingWriter{errW}, m)
		require.ErrorIs(t, err, errW, "error %v, want the writer's error", err)
	})
}

// badModel reports a parameter under a duplicated name.
type badModel struct{ *MLP }

func (b badModel) Params() []Param {
	ps := b.MLP.Params()
	ps[1].Name = ps[0].Name
	return ps
}

type failingWriter struct{ err error }

func (f failingWriter) Write([]byte) (int, error) { return 0, f.err }

// The MLP without hidden layers is the linear scorer s = x·w + b: it describes itself as
// Linear(in=4), its parameters are a (4, 1) weight and a (1) bias, the same seed gives the
// same checkpoint, and a checkpoint of one loads into another of another seed.
func TestMLPWithoutHiddenLayersIsLinear(t *testing.T) {
	lin := newMLP(t, MLPConfig{In: 4, Seed: 9})
	got := lin.Architecture()
	require.Equal(t, "Linear(in=4)", got, "Architecture = %q, want Linear(in=4)", got)
	ps := lin.Params()
	require.Equal(t, 2, len(ps), "parameters %v, want layer0.weight (4, 1) and layer0.bias (1)", ps)
	require.Equal(t, "layer0.weight", ps[0].Name, "parameters %v, want layer0.weight (4, 1) and layer0.bias (1)", ps)
	require.True(t, ps[0].Value.Shape().Eq(tensor.Shape{4, 1}), "parameters %v, want layer0.weight (4, 1) and layer0.bias (1)", ps)
	require.Equal(t, "layer0.bias", ps[1].Name, "parameters %v, want layer0.weight (4, 1) and layer0.bias (1)", ps)
	require.True(t, ps[1].Value.Shape().Eq(tensor.Shape{1}), "parameters %v, want layer0.weight (4, 1) and layer0.bias (1)", ps)
	require.True(t, bytes.Equal(encoded(t, lin), encoded(t, newMLP(t, MLPConfig{In: 4, Seed: 9}))), "two linear scorers of one seed encode differently")
	other := newMLP(t, MLPConfig{In: 4, Seed: 10})
	require.NoError(t, Read(bytes.NewReader(encoded(t, lin)), other), "a linear scorer's checkpoint does not load into another")
	require.True(t, bytes.Equal(encoded(t, other), encoded(t, lin)), "the loaded scorer differs from the saved one")
}

// describedAs is a model whose Architecture is arch, to write checkpoints as earlier
// versions described their models.
type describedAs struct {
	Model
	arch string
}

func (d describedAs) Architecture() string { return d.arch }

// A checkpoint of an MLP without hidden layers written before the linear scorer became that MLP
// described it with an activation; it loads into today's model, and a legacy description of
// another network still does not.
func TestLegacyLinearCheckpointLoads(t *testing.T) {
	old := newMLP(t, MLPConfig{In: 4, Seed: 3})
	for _, c := range []struct {
		arch string
		want error
	}{
		{"MLP(in=4, hidden=[], activation=relu)", nil},
		{"MLP(in=4, hidden=[], activation=tanh)", nil},
		{"MLP(in=4, hidden=[5], activation=relu)", ErrArchitecture},
		{"MLP(in=3, hidden=[], activation=relu)", ErrArchitecture},
	} {
		t.Run(c.arch, func(t *testing.T) {
			data := encoded(t, describedAs{old, c.arch})
			m := newMLP(t, MLPConfig{In: 4, Seed: 9})
			err := Read(bytes.NewReader(data), m)
			require.ErrorIs(t, err, c.want, "Read: %v, want %v", err, c.want)
			if c.want == nil {
				for i, p := range m.Params() {
					require.True(t, reflect.DeepEqual(p.Value.Data(), old.Params()[i].Value.Data()), "%s not restored", p.Name)
				}
			}
		})
	}
}
