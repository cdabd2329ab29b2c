package main

import (
	"fmt"
	"strings"

	"github.com/rocops/rocops/train"
)

// runsUsage is the help of -losses, a list of run names (train.Names):
// every name of train's registry (train.Recipes) with what it trains and the options it
// takes, then every option once, with an example.
func runsUsage() string {
	var b strings.Builder
	b.WriteString("comma-separated runs, each a name with options after colons (kde:lr=0.3:pool=1024) " +
		"and a \"+wu\" suffix that runs a plain loss after -warmup epochs of cross-entropy (sqhinge+wu):\n")
	var opts []train.RecipeOption
	seen := map[string]bool{}
	for _, r := range train.Recipes() {
		line := r.Help
		if len(r.Options) > 0 {
			usages := make([]string, len(r.Options))
			for k, o := range r.Options {
				usages[k] = o.Usage()
				if !seen[o.Key] {
					seen[o.Key] = true
					opts = append(opts, o)
				}
			}
			line += "; options " + strings.Join(usages, ", ")
		}
		fmt.Fprintf(&b, "  %-10s %s\n", r.Name, line)
	}
	b.WriteString("options:\n")
	for _, o := range opts {
		help := o.Help
		if o.Example != "" {
			help += fmt.Sprintf(", as in %s=%s", o.Key, o.Example)
		}
		fmt.Fprintf(&b, "  %-10s %s\n", o.Usage(), help)
	}
	return b.String() // the flag package writes the default on a line of its own
}
