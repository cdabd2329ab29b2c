package nn

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gorgonia.org/tensor"

	"github.com/rocops/rocops/internal/enum"
	"github.com/rocops/rocops/internal/floats"
)

// Init chooses how a layer's weights are drawn (see the package documentation for the
// formulas). The zero value, AutoInit, picks He for a ReLU layer and Glorot for any other.
type Init int

const (
	// AutoInit is He for layers followed by ReLU and Glorot for the others (Tanh, Identity,
	// and so the output layer).
	AutoInit Init = iota
	// Glorot draws weights uniformly from (−a, a), a = √(6/(n_in + n_out)).
	Glorot
	// He draws weights from a normal distribution with mean 0 and σ = √(2/n_in).
	He
)

var inits = enum.New[Init]("initialisation", errConfig, "auto", "glorot", "he")

// String returns the initialisation's name: "auto", "glorot" or "he".
func (i Init) String() string { return inits.String(i) }

// resolve returns the initialisation a layer followed by act uses.
func (i Init) resolve(act Activation) Init {
	if i != AutoInit {
		return i
	}
	if act == ReLU {
		return He
	}
	return Glorot
}

// pcgStream is the second PCG seed: fixed, so that Seed alone determines the parameters.
const pcgStream = 0x726f636f7073 // "rocops"

// newRand returns the generator that initialises a model with the given seed.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, pcgStream)) }

// fill draws every element of w, a matrix of shape (n_in, n_out), in row-major order. i must be
// Glorot or He.
func (i Init) fill(w *tensor.Dense, rng *rand.Rand) error {
	fanIn, fanOut := w.Shape()[0], w.Shape()[1]
	var draw func() float64
	switch i {
	case Glorot:
		a := math.Sqrt(6 / float64(fanIn+fanOut))
		draw = func() float64 { return a * (2*rng.Float64() - 1) }
	case He:
		sigma := math.Sqrt(2 / float64(fanIn))
		draw = func() float64 { return sigma * rng.NormFloat64() }
	default:
		return fmt.Errorf("%w: initialisation %v cannot draw weights", errConfig, i)
	}
	switch d := w.Data().(type) {
	case []float64:
		fillWith(d, draw)
	case []float32:
		fillWith(d, draw)
	default:
		return fmt.Errorf("%w: unsupported dtype %v", errConfig, w.Dtype())
	}
	return nil
}

func fillWith[T floats.Float](dst []T, draw func() float64) {
	for k := range dst {
		dst[k] = T(draw())
	}
}
