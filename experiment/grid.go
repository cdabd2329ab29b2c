package experiment

import "context"

// Grid runs searches over seeds: for every seed, the split Split prepares, then every search
// of Searches on it, in order.
type Grid struct {
	Seeds    []uint64
	Split    func(seed uint64) (*Split, error)
	Searches []*Search
	Hooks    GridHooks
}

// GridHooks observe a grid; a nil field is not called. They are called in order: for every
// seed Split, then for every search Start, the search's own hooks, and Done.
type GridHooks struct {
	// Split is called with each seed's split before any search runs on it; an error stops
	// the grid.
	Split func(sp *Split) error
	// Start is called before search k runs on sp; false skips it (such as a run already on
	// file), and Done is then not called.
	Start func(sp *Split, k int) bool
	// Done is called after search k ran on sp, with its result or its error; an error it
	// returns stops the grid.
	Done func(sp *Split, k int, best *Best, err error) error
}

// Run runs the grid. It stops at the first error of Split or of a hook, which it returns,
// and, when ctx is cancelled, after the search that was running (whose error reaches Done)
// with ctx's error.
func (g *Grid) Run(ctx context.Context) error {
	for _, seed := range g.Seeds {
		sp, err := g.Split(seed)
		if err != nil {
			return err
		}
		if g.Hooks.Split != nil {
			if err := g.Hooks.Split(sp); err != nil {
				return err
			}
		}
		for k, s := range g.Searches {
			if g.Hooks.Start != nil && !g.Hooks.Start(sp, k) {
				continue
			}
			best, err := s.Run(ctx, sp)
			if g.Hooks.Done != nil {
				if err := g.Hooks.Done(sp, k, best, err); err != nil {
					return err
				}
			}
			if err := ctx.Err(); err != nil {
				return err
			}
		}
	}
	return nil
}
