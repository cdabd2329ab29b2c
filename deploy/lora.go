package deploy

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gorgonia.org/tensor"

	"github.com/rocops/rocops/nn"
)

// loraSuffix matches the end of the architecture line of an MLP with LoRA adapters
// (nn.Transfer): ", lora=[k …], rank=r, alpha=α".
var loraSuffix = regexp.MustCompile(`, lora=\[([0-9 ]+)\], rank=([0-9]{1,10}), alpha=([^,)]+)\)$`)

// mergeAdapters returns m itself when it has no LoRA adapters, and otherwise the plain MLP of
// the same layers whose weights hold the adapters merged: an adapted layer of weight W
// (n_in × n_out), adapter matrices A (r × n_in) and B (n_out × r) and scale s = α/r computes
// h·W + b + s·(h·Aᵀ)·Bᵀ = h·W' + b with
//
//	W'ᵢⱼ = Wᵢⱼ + s·Σₜ Bⱼₜ·Aₜᵢ,   i = 1…n_in, j = 1…n_out, t = 1…r,
//
// summed in float64 and rounded once to the model's dtype. The merged model scores as the
// adapted one does, to rounding. Its errors wrap ErrModel.
func mergeAdapters(m nn.Model) (nn.Model, error) {
	d, ok := m.(nn.Describer)
	if !ok {
		return m, nil
	}
	arch := d.Architecture()
	loc := loraSuffix.FindStringSubmatchIndex(arch)
	if loc == nil {
		return m, nil
	}
	alpha, err := strconv.ParseFloat(arch[loc[6]:loc[7]], 64)
	rank, rerr := strconv.Atoi(arch[loc[4]:loc[5]])
	if err != nil || rerr != nil || rank < 1 {
		return nil, fmt.Errorf("%w: architecture %q: bad rank or alpha", ErrModel, arch)
	}
	spec := ModelSpec{Architecture: arch[:loc[0]] + ")", Dtype: m.Dtype()}
	l, err := spec.parse()
	if err != nil {
		return nil, err
	}
	plain, err := spec.build(l)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrModel, err)
	}
	src := map[string]*tensor.Dense{}
	for _, p := range m.Params() {
		src[p.Name] = p.Value
	}
	s := alpha / float64(rank)
	for _, p := range plain.Params() {
		v, ok := src[p.Name]
		if !ok || !v.Shape().Eq(p.Value.Shape()) {
			return nil, fmt.Errorf("%w: %s: no parameter %s of shape %v to merge into", ErrModel, arch, p.Name, p.Value.Shape())
		}
		w := asFloat64s(v)
		if layer, isWeight := strings.CutSuffix(p.Name, ".weight"); isWeight {
			a, b := src[layer+".lora_a"], src[layer+".lora_b"]
			if (a == nil) != (b == nil) {
				return nil, fmt.Errorf("%w: %s: %s has one adapter matrix of two", ErrModel, arch, layer)
			}
			if a != nil {
				in, out := p.Value.Shape()[0], p.Value.Shape()[1]
				if !a.Shape().Eq(tensor.Shape{rank, in}) || !b.Shape().Eq(tensor.Shape{out, rank}) {
					return nil, fmt.Errorf("%w: %s: %s's adapters have shapes %v and %v (want (%d, %d) and (%d, %d))",
						ErrModel, arch, layer, a.Shape(), b.Shape(), rank, in, out, rank)
				}
				av, bv := asFloat64s(a), asFloat64s(b)
				for i := range in {
					for j := range out {
						var sum float64
						for t := range rank {
							sum += bv[j*rank+t] * av[t*in+i]
						}
						w[i*out+j] += s * sum
					}
				}
			}
		}
		switch dst := p.Value.Data().(type) {
		case []float64:
			copy(dst, w)
		case []float32:
			for k, x := range w {
				dst[k] = float32(x)
			}
		}
	}
	return plain, nil
}

// asFloat64s returns the values of t, a float32 or float64 tensor, as a new []float64.
func asFloat64s(t *tensor.Dense) []float64 {
	switch v := t.Data().(type) {
	case []float64:
		return append([]float64(nil), v...)
	case []float32:
		out := make([]float64, len(v))
		for k, x := range v {
			out[k] = float64(x)
		}
		return out
	}
	return nil
}
