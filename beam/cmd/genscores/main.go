// Command genscores writes synthetic score shards for trying and measuring rocbeam:
// -shards CSV files dir/scored-k.csv with columns row, label and score, -rows rows in all, a
// share -positives of them labelled 1. Scores are binormal — N(0, 1) for negatives, N(1, 1)
// for positives (an AUC of about 0.76) — written exactly, or rounded to -decimals places so
// that they tie (0: not rounded).
//
//	go run ./cmd/genscores -rows 2000000 -shards 8 -out /tmp/scores
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

func main() {
	rows := flag.Int("rows", 1_000_000, "rows in all")
	shards := flag.Int("shards", 8, "files")
	positives := flag.Float64("positives", 0.1, "share of rows labelled 1")
	decimals := flag.Int("decimals", 0, "round scores to this many decimal places (0: exact)")
	seed := flag.Uint64("seed", 1, "random seed")
	out := flag.String("out", ".", "directory of the shards")
	flag.Parse()
	if err := write(*out, *rows, *shards, *positives, *decimals, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "genscores:", err)
		os.Exit(1)
	}
}

func write(dir string, rows, shards int, positives float64, decimals int, seed uint64) error {
	if rows < 1 || shards < 1 || !(positives > 0 && positives < 1) || decimals < 0 {
		return fmt.Errorf("want -rows ≥ 1, -shards ≥ 1, -positives in (0, 1) and -decimals ≥ 0")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(seed, 0x73636f726573)) // "scores"
	scale := math.Pow(10, float64(decimals))
	row := 0
	for k := range shards {
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("scored-%d.csv", k)))
		if err != nil {
			return err
		}
		w := bufio.NewWriterSize(f, 1<<20)
		w.WriteString("row,label,score\n")
		var buf []byte
		for end := rows * (k + 1) / shards; row < end; row++ {
			y := 0
			if rng.Float64() < positives {
				y = 1
			}
			x := rng.NormFloat64() + float64(y)
			if decimals > 0 {
				x = math.Round(x*scale) / scale
			}
			buf = strconv.AppendInt(buf[:0], int64(row), 10)
			buf = append(buf, ',', byte('0'+y), ',')
			buf = strconv.AppendFloat(buf, x, 'g', -1, 64)
			buf = append(buf, '\n')
			w.Write(buf)
		}
		if err := w.Flush(); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	return nil
}
