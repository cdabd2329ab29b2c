package deploy

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/rocops/rocops/internal/runname"
	"github.com/rocops/rocops/nn"
)

// sidecarPath returns the sidecar that Load reads for path: path itself when it ends in
// .json, else <name>.json for <name>.params or <name>.<h>.params (h 16 hex digits).
func sidecarPath(path string) string { return runname.SidecarPath(path) }

// hashSuffix matches the .<h> of a model file <name>.<h>.params, h 16 hex digits.
var hashSuffix = regexp.MustCompile(`\.[0-9a-f]{16}$`)

// Load reads a deployed model: the sidecar sidecarPath(modelPath) and the model file it
// names, in the same directory, and returns a Scorer of them. It checks everything before
// using it (see the package documentation). When modelPath names a content-addressed model
// file <name>.<h>.params, it must be the one the sidecar names (else ErrSidecar: a later Save
// superseded it).
func Load(modelPath string) (*Scorer, error) {
	side := sidecarPath(modelPath)
	var prev string
	for try := 0; ; try++ {
		sc, err := readSidecar(side)
		if err != nil {
			return nil, err
		}
		base := filepath.Base(modelPath)
		if stem := strings.TrimSuffix(base, ".params"); stem != base && hashSuffix.MatchString(stem) && base != sc.model.File {
			return nil, fmt.Errorf("%w: %s names %s, not %s: a later save superseded it", ErrSidecar, side, sc.model.File, base)
		}
		path := filepath.Join(filepath.Dir(side), sc.model.File)
		m, err := readModel(path, sc)
		// A save that committed a new sidecar between our two reads may have removed the model
		// file the old one named: read the new sidecar (a few times, for a busy writer).
		if errors.Is(err, fs.ErrNotExist) && sc.model.File != prev && try < 3 {
			prev = sc.model.File
			continue
		}
		if err != nil {
			return nil, err
		}
		return newScorer(m, sc, side, path)
	}
}

// readRegular reads the regular file at path, refusing anything else (a FIFO, a device)
// before opening it, and at most limit bytes; its errors wrap kind.
func readRegular(path string, limit int64, kind error) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", kind, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%w: %s is not a regular file (%v)", kind, path, fi.Mode().Type())
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("%w: %s has %d bytes, more than the %d expected", kind, path, fi.Size(), limit)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", kind, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%w: reading %s: %w", kind, path, err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%w: %s has more than the %d bytes expected", kind, path, limit)
	}
	return b, nil
}

func readSidecar(path string) (*sidecar, error) {
	b, err := readRegular(path, maxSidecarBytes, ErrSidecar)
	if err != nil {
		return nil, err
	}
	sc, err := decodeSidecar(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return sc, nil
}

// readModel reads and checks the model file at path that sc describes, and rebuilds the model.
func readModel(path string, sc *sidecar) (nn.Model, error) {
	limit := sc.model.Bytes
	if limit == 0 { // version 1 records no size: its architecture's parameters, and a margin
		n, _ := sc.net.params(maxParams) // check() refused more
		limit = min(maxModelBytes, 8*int64(n)+1<<20)
	}
	b, err := readRegular(path, limit, ErrModel)
	if err != nil {
		return nil, err
	}
	if sc.model.Bytes > 0 && int64(len(b)) != sc.model.Bytes {
		return nil, fmt.Errorf("%w: %s has %d bytes, its operating-point file says %d", ErrModel, path, len(b), sc.model.Bytes)
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != sc.model.SHA256 {
		return nil, fmt.Errorf("%w: %s: SHA-256 %x, recorded %s", ErrHash, path, sum, sc.model.SHA256)
	}
	arch, dt, err := nn.Describe(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrModel, path, err)
	}
	if arch != sc.spec.Architecture || dt != sc.spec.Dtype {
		return nil, fmt.Errorf("%w: it describes a %v %s, the model file holds a %v %s",
			ErrSidecar, sc.spec.Dtype, sc.spec.Architecture, dt, arch)
	}
	// The checkpoint holds every parameter: refuse a description of more than fit in the
	// file before allocating the model.
	if n, ok := sc.net.params(len(b) / int(dt.Size())); !ok {
		return nil, fmt.Errorf("%w: %s has more parameters than %s holds", ErrSidecar, sc.spec.Architecture, path)
	} else if n == 0 {
		return nil, fmt.Errorf("%w: %s has no parameters", ErrSidecar, sc.spec.Architecture)
	}
	m, err := sc.spec.build(sc.net)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSidecar, err)
	}
	if err := nn.Read(bytes.NewReader(b), m); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrModel, path, err)
	}
	return m, nil
}
