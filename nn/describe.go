package nn

import (
	"io"

	"gorgonia.org/tensor"
)

// Describe reads a checkpoint from r, to its end, checking it as [Read] does, and returns the
// architecture description (see [Describer]; "" for a model without one) and the dtype of the
// model it was written from, without a model to load it into. A program that rebuilds the
// model from a description kept elsewhere (package deploy) compares the two before it
// allocates the model. Describe allocates as data arrives, never more than about the size of
// r's data. Its errors are those of Read about the file itself.
func Describe(r io.Reader) (arch string, dtype tensor.Dtype, err error) {
	c, err := decode(r)
	if err != nil {
		return "", tensor.Dtype{}, err
	}
	return currentArchitecture(c.arch), c.dtype, nil
}
