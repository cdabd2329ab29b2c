package train

import (
	"flag"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops"
)

// Every optimiser's name round-trips through ParseOptimizer, text marshalling and a flag.
func TestOptimizerNames(t *testing.T) {
	for o, name := range map[Optimizer]string{Adam: "adam", SGD: "sgd", Momentum: "momentum", RMSProp: "rmsprop"} {
		require.Equal(t, name, o.String())
		got, err := ParseOptimizer(name)
		require.NoError(t, err)
		require.Equal(t, o, got)
		text, err := o.MarshalText()
		require.NoError(t, err)
		require.Equal(t, name, string(text))

		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		var v Optimizer
		fs.TextVar(&v, "opt", Adam, "optimiser")
		require.NoError(t, fs.Parse([]string{"-opt", name}))
		require.Equal(t, o, v)
	}
	_, err := ParseOptimizer("adamw")
	require.ErrorIs(t, err, rocops.ErrConfig)
	_, err = Optimizer(9).MarshalText()
	require.ErrorIs(t, err, rocops.ErrConfig)
}
