package deploy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/rocops/rocops/data"
)

// SafeName turns a run's name into a name Save takes: every character but letters, digits
// and "+._-" becomes "_" (so "kde:pool=1024" is saved as kde_pool_1024, a name every file
// system takes).
func SafeName(run string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune("+._-", r):
			return r
		}
		return '_'
	}, run)
}

// seedModels lists, for the model path <dir>/<run>.params, the models of the same run saved
// one per seed as <dir>/<run>.seed<s>.params (those whose sidecar <run>.seed<s>.json exists),
// in the order of s; nil when there are none. A command that saves one model per seed points
// a user who asks for <run>.params to them.
func seedModels(path string) []string {
	base := strings.TrimSuffix(sidecarPath(path), ".json")
	found, _ := filepath.Glob(base + ".seed*.json")
	seed := func(p string) uint64 {
		n, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimPrefix(p, base+".seed"), ".json"), 10, 64)
		return n
	}
	found = slices.DeleteFunc(found, func(p string) bool { return seed(p) == 0 && !strings.HasSuffix(p, ".seed0.json") })
	slices.SortFunc(found, func(a, b string) int {
		switch sa, sb := seed(a), seed(b); {
		case sa < sb:
			return -1
		case sa > sb:
			return 1
		}
		return 0
	})
	for k, p := range found {
		found[k] = strings.TrimSuffix(p, ".json") + ".params"
	}
	return found
}

// ScoreFile scores the file at path: ScoreParquet when its name ends in ".parquet" (in any
// case), else ScoreCSVContext. It closes the file as soon as ctx is done, so that a read
// blocked on a pipe or FIFO returns too, with ctx's error; a *data.CSVError it returns names
// the file.
func (s *Scorer) ScoreFile(ctx context.Context, path string, w io.Writer) (rows, flagged int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	defer context.AfterFunc(ctx, func() { f.Close() })()
	if strings.HasSuffix(strings.ToLower(path), ".parquet") {
		var fi os.FileInfo
		if fi, err = f.Stat(); err == nil {
			rows, flagged, err = s.ScoreParquet(ctx, f, fi.Size(), w)
		}
	} else {
		rows, flagged, err = s.ScoreCSVContext(ctx, f, w)
	}
	if ctx.Err() != nil && errors.Is(err, os.ErrClosed) { // the close, not the file, failed the read
		return rows, flagged, fmt.Errorf("deploy: scoring %s stopped after %d rows: %w", path, rows, ctx.Err())
	}
	if ce, ok := errors.AsType[*data.CSVError](err); ok && ce.File == "" {
		ce.File = path
	}
	return rows, flagged, err
}

// ExplainLoad is Load's error for path made actionable: when path's operating-point file
// does not exist, it says so, pointing to the models saved one per seed beside it (seedModels)
// when there are any, or to Save's writing of the file; other errors come back as they are.
func ExplainLoad(path string, err error) error {
	if !errors.Is(err, fs.ErrNotExist) || !errors.Is(err, ErrSidecar) {
		return err
	}
	side := sidecarPath(path)
	found := seedModels(path)
	if len(found) == 0 {
		return fmt.Errorf("no operating-point file %s (the operating point is saved beside the model): %w", side, err)
	}
	return fmt.Errorf("no operating-point file %s; one model was saved per seed: %s: %w", side, strings.Join(found, ", "), err)
}
