// Command genscores writes synthetic score shards for trying and measuring rocbeam:
// -shards CSV files dir/scored-k.csv with columns row, label and score, -rows rows in all, a
// share -positives of them labelled 1. Scores are binormal — N(0, 1) for negatives, N(1, 1)
// for positives (an AUC of about 0.76) — written exactly, or rounded to -decimals places so
// that they tie (0: not rounded).
//
// With -features k it writes raw feature rows instead, for rocbeam -model -input: files
// dir/rows-k.csv with columns x0 … x(k−1) and label, each feature N(0.3·label, 1).
//
//	go run ./cmd/genscores -rows 2000000 -shards 8 -out /tmp/scores
//	go run ./cmd/genscores -rows 1000000 -shards 8 -features 30 -out /tmp/rows
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
	features := flag.Int("features", 0, "write rows of this many raw features and a label instead of scores")
	seed := flag.Uint64("seed", 1, "random seed")
	out := flag.String("out", ".", "directory of the shards")
	flag.Parse()
	if err := write(*out, *rows, *shards, *positives, *decimals, *features, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "genscores:", err)
		os.Exit(1)
	}
}

func write(dir string, rows, shards int, positives float64, decimals, features int, seed uint64) error {
	if rows < 1 || shards < 1 || !(positives > 0 && positives < 1) || decimals < 0 || features < 0 {
		return fmt.Errorf("want -rows ≥ 1, -shards ≥ 1, -positives in (0, 1), -decimals ≥ 0 and -features ≥ 0")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(seed, 0x73636f726573)) // "scores"
	scale := math.Pow(10, float64(decimals))
	row := 0
	for k := range shards {
		name, header := fmt.Sprintf("scored-%d.csv", k), "row,label,score\n"
		if features > 0 {
			name, header = fmt.Sprintf("rows-%d.csv", k), ""
			for j := range features {
				header += fmt.Sprintf("x%d,", j)
			}
			header += "label\n"
		}
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		w := bufio.NewWriterSize(f, 1<<20)
		w.WriteString(header)
		var buf []byte
		for end := rows * (k + 1) / shards; row < end; row++ {
			y := 0
			if rng.Float64() < positives {
				y = 1
			}
			if features > 0 {
				buf = buf[:0]
				for range features {
					buf = strconv.AppendFloat(buf, rng.NormFloat64()+0.3*float64(y), 'g', 6, 64)
					buf = append(buf, ',')
				}
				buf = append(buf, byte('0'+y), '\n')
				w.Write(buf)
				continue
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
