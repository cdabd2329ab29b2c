package train_test

import (
	"fmt"

	"github.com/rocops/rocops/ops/pairwise"
	"github.com/rocops/rocops/train"
)

// A History's epochs say which loss they trained: a warm-up of two cross-entropy epochs, then
// the main loss's four (fitRecipe trains 4 epochs a phase).
func ExampleStage() {
	h := fitRecipe(train.WithWarmup(2, train.Pairwise{Config: pairwise.Config{Surrogate: pairwise.SquaredHinge}}))
	epochs := map[train.Stage]int{}
	for _, e := range h.Epochs {
		epochs[e.Stage]++
	}
	for _, s := range []train.Stage{train.Warmup, train.Main, train.Intervention} {
		fmt.Printf("%v %d\n", s, epochs[s])
	}
	// Output:
	// warmup 2
	// main 4
	// intervention 0
}

// Each option of a name, as -losses writes it (Usage), and a name that uses it: the option's
// Example value after its key, a name that Names.Parse accepts at α = 0.1; a width or a pool
// of 0 it refuses.
func ExampleRecipeOption_Usage() {
	for _, r := range train.Recipes() {
		if r.Name != "kde-plain" {
			continue
		}
		for _, o := range r.Options {
			name := r.Name + ":" + o.Key
			if o.Arg != "" {
				name += "=" + o.Example
			}
			names := train.Names{Point: train.Point{Alpha: 0.1}}
			_, _, err := names.Parse(name)
			fmt.Printf("%-8s %-20s parses: %v", o.Usage(), name, err == nil)
			if o.Arg != "" {
				_, _, err = names.Parse(r.Name + ":" + o.Key + "=0")
				fmt.Printf(", with 0: %v", err == nil)
			}
			fmt.Println()
		}
	}
	// Output:
	// tail     kde-plain:tail       parses: true
	// widen=w  kde-plain:widen=2    parses: true, with 0: false
	// pool=n   kde-plain:pool=1024  parses: true, with 0: false
	// anneal   kde-plain:anneal     parses: true
}
