package main

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/deploy"
	"github.com/rocops/rocops/optim"
)

// Three aucm runs of different seeds saving into one -out at once leave the PESG state of the
// run whose model pair is there, and the state names that model by its SHA-256: the state
// was written after the pair's lock was released, and in 2 of 8 such rounds it came from
// another seed than the pair beside it. Each run here waits between its pair and its state,
// the run of a later seed less, so that states written outside the lock land out of order.
func TestConcurrentAUCMRunsKeepStateWithModel(t *testing.T) {
	dir := t.TempDir()
	path := writeSeparableClassCSV(t, dir, 60, 1)
	args := func(out string, seed int) []string {
		return []string{"-data", path, "-label", "class", "-json", "-epochs", "1", "-hidden", "4", "-losses", "aucm:lr=0.1",
			"-plot", "", "-boot", "0", "-seed", fmt.Sprint(seed), "-out", out}
	}
	seeds := []int{1, 2, 3}
	alone := map[uint64]optim.PESGState{} // each seed's state, trained alone
	for _, seed := range seeds {
		out := filepath.Join(dir, fmt.Sprint("alone", seed))
		code, _, stderr := roctrain(t, args(out, seed)...)
		require.Equal(t, 0, code, stderr)
		st, err := optim.LoadPESGState(filepath.Join(out, "aucm_lr_0.1.pesg"))
		require.NoError(t, err)
		st.ModelSHA256 = [32]byte{}
		alone[uint64(seed)] = st
	}
	require.NotEqual(t, alone[1], alone[2], "the seeds train to other states")
	// The later a seed saves its pair, the sooner it writes its state.
	testBeforeState = func(seed uint64) { time.Sleep(time.Duration(4-seed) * 15 * time.Millisecond) }
	t.Cleanup(func() { testBeforeState = nil })
	rounds := 12
	if testing.Short() {
		rounds = 4
	}
	for round := range rounds {
		out := filepath.Join(dir, fmt.Sprint("round", round))
		var wg sync.WaitGroup
		codes := make([]int, len(seeds))
		for k, seed := range seeds {
			wg.Go(func() { codes[k], _, _ = roctrain(t, args(out, seed)...) })
		}
		wg.Wait()
		require.Equal(t, []int{0, 0, 0}, codes)
		s, err := deploy.Load(filepath.Join(out, "aucm_lr_0.1.json"))
		require.NoError(t, err)
		seed := s.OperatingPoint().Run.Seed
		s.Close()
		st, err := optim.LoadPESGState(filepath.Join(out, "aucm_lr_0.1.pesg"))
		require.NoError(t, err)
		require.Equal(t, modelSum(t, filepath.Join(out, "aucm_lr_0.1.json")), st.ModelSHA256, "round %d: the state names the model beside it", round)
		st.ModelSHA256 = [32]byte{}
		require.Equal(t, alone[seed], st, "round %d: the state of seed %d, whose model is there", round, seed)
	}
}
