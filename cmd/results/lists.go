package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// list is a comma-separated flag value, split as it is written.
func list(s string) []string { return strings.Split(s, ",") }

// seedList parses the comma-separated seeds of -seeds.
func seedList(s string) ([]uint64, error) {
	var seeds []uint64
	for _, v := range list(s) {
		seed, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return nil, usageError{fmt.Errorf("-seeds: %w", err)}
		}
		seeds = append(seeds, seed)
	}
	return seeds, nil
}

// meanSD returns the mean and the sample standard deviation (n − 1) of xs, 0 for one value.
func meanSD(xs []float64) (float64, float64) {
	if len(xs) < 2 {
		return stat.Mean(xs, nil), 0
	}
	return stat.MeanStdDev(xs, nil)
}

// pairedT returns the mean d̄ of the k paired differences ds and the half-width
//
//	t_{0.975, k−1} · s_d/√k
//
// of its 95% paired-t interval, where s_d is the sample standard deviation of the
// differences.
func pairedT(ds []float64) (mean, half float64) {
	m, s := meanSD(ds)
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(ds) - 1)}.Quantile(0.975)
	return m, q * s / math.Sqrt(float64(len(ds)))
}

// star is " *" when the interval [m − h, m + h] excludes 0, else "".
func star(m, h float64) string {
	if m-h > 0 || m+h < 0 {
		return " *"
	}
	return ""
}

// readLines decodes every line of the files that is a JSON object of T and hands it to use,
// in file order. Other lines are skipped, such as the test log lines of a file that holds a
// test binary's output. A file that cannot be opened or read is an error.
func readLines[T any](files []string, use func(T)) error {
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 64<<10), 1<<26)
		for sc.Scan() {
			var r T
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				continue // not a result line
			}
			use(r)
		}
		err = sc.Err()
		fh.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
	}
	return nil
}
