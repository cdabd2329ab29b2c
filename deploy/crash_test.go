package deploy

import (
	"bufio"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// saverEnv names the directory in which the test binary, re-executed by TestKilledSaves,
// saves the run "ce" again and again until it is killed.
const saverEnv = "DEPLOY_TEST_SAVER_DIR"

func TestMain(m *testing.M) {
	if v := os.Getenv(saverEnv); v != "" {
		dir, start, _ := strings.Cut(v, "|")
		seed, err := strconv.ParseUint(start, 10, 64)
		if err != nil {
			panic(err)
		}
		saveForever(dir, seed)
		return
	}
	os.Exit(m.Run())
}

// saveForever saves the run "ce" in dir with seeds seed, seed+1, … until it is killed,
// printing each seed it saved and pausing a random
// few hundred microseconds after each file, so that kills land everywhere.
func saveForever(dir string, seed uint64) {
	t := &testing.T{}
	testHook = func(string) error {
		time.Sleep(time.Duration(rand.IntN(500)) * time.Microsecond)
		return nil
	}
	for ; ; seed++ {
		f := newFixture(t, seed)
		if _, err := Save(dir, "ce", f.m, f.op, f.st, f.features); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		fmt.Println(seed) // saved: the parent starts its clock at the first
	}
}

// A Save stopped after either of its commits leaves a consistent pair: the previous one when
// it stopped after writing the model file, the new one after writing the sidecar.
func TestSaveStoppedBetweenWrites(t *testing.T) {
	for _, c := range []struct {
		step string
		seed uint64 // of the pair Load must then find
	}{{"model written", 1}, {"sidecar written", 2}} {
		t.Run(c.step, func(t *testing.T) {
			dir := t.TempDir()
			newFixture(t, 1).save(t, dir, "ce")
			crash := errors.New("crash")
			testHook = func(step string) error {
				if step == c.step {
					return crash
				}
				return nil
			}
			defer func() { testHook = nil }()
			f := newFixture(t, 2)
			_, err := Save(dir, "ce", f.m, f.op, f.st, f.features)
			require.ErrorIs(t, err, crash)
			testHook = nil
			s, err := Load(filepath.Join(dir, "ce.params"))
			require.NoError(t, err)
			require.Equal(t, c.seed, s.OperatingPoint().Run.Seed)
		})
	}
}

// 30 saves killed with SIGKILL at random moments over an existing good pair leave 0
// inconsistent pairs: after each kill Load finds a complete pair of one of the saved seeds;
// the next Save clears what the killed ones left.
func TestKilledSaves(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL")
	}
	dir := t.TempDir()
	newFixture(t, 1).save(t, dir, "ce")
	seen := map[uint64]bool{}
	midSave := 0 // kills that left uncommitted files
	for k := range 30 {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s|%d", saverEnv, dir, 1000*(k+1)))
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		_, err = bufio.NewReader(out).ReadString('\n') // the first save is done
		require.NoError(t, err, stderr.String())
		time.Sleep(time.Duration(rand.IntN(20_000)) * time.Microsecond)
		require.NoError(t, cmd.Process.Kill())
		err = cmd.Wait()
		require.Error(t, err, "the saver was killed")
		require.Empty(t, stderr.String())
		models := 0
		for _, n := range files(t, dir) {
			if strings.HasSuffix(n, ".params") || strings.Contains(n, ".tmp-") {
				models++
			}
		}
		if models > 1 { // killed while a new model file or a temporary was not yet committed
			midSave++
		}
		s, err := Load(filepath.Join(dir, "ce.params"))
		require.NoError(t, err, "kill %d: an inconsistent pair", k+1)
		seed := s.OperatingPoint().Run.Seed
		require.Equal(t, s.sc.model.File, filepath.Base(s.ModelPath()))
		seen[seed] = true
	}
	t.Logf("pairs found after the kills: %d distinct seeds; %d kills left uncommitted files", len(seen), midSave)
	require.Positive(t, midSave, "some kills land inside a save")
	f := newFixture(t, 99)
	model := f.save(t, dir, "ce")
	require.ElementsMatch(t, []string{".ce.lock", "ce.json", filepath.Base(model)}, files(t, dir))
}

// Two writers saving the same run at once, 20 times, never corrupt each other, while a reader
// loads throughout: every Load succeeds, the last pair is one of the two, and one model file
// is left.
func TestConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	newFixture(t, 1).save(t, dir, "ce")
	fs := []fixture{newFixture(t, 2), newFixture(t, 3)}
	stop := make(chan struct{})
	var readErrs []error
	var reader sync.WaitGroup
	reader.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := Load(filepath.Join(dir, "ce.params")); err != nil {
				readErrs = append(readErrs, err)
			}
		}
	})
	for try := range 20 {
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for w := range 2 {
			wg.Go(func() {
				_, errs[w] = Save(dir, "ce", fs[w].m, fs[w].op, fs[w].st, fs[w].features)
			})
		}
		wg.Wait()
		require.NoError(t, errors.Join(errs...), "try %d", try)
		s, err := Load(filepath.Join(dir, "ce.params"))
		require.NoError(t, err, "try %d", try)
		require.Contains(t, []uint64{2, 3}, s.OperatingPoint().Run.Seed)
		models := 0
		for _, n := range files(t, dir) {
			require.NotContains(t, n, ".tmp-", "try %d", try)
			if strings.HasSuffix(n, ".params") {
				models++
			}
		}
		require.Equal(t, 1, models, "try %d: %v", try, files(t, dir))
	}
	close(stop)
	reader.Wait()
	require.Empty(t, readErrs)
}
