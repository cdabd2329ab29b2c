package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/rocops/rocops/experiment"
)

// TestMNISTFiles reads the GoMNIST module's files from the module cache (go build and go
// test download the module) and checks the counts of every digit in both files, the well-known
// ones of MNIST, and the downstream parts of seed 1: 80 + 3,920 training rows and 40 + 1,960
// validation rows, disjoint, and the 4,861 test images of 5–9, 1,009 of them nines. It skips
// when the module is not in the cache.
func TestMNISTFiles(t *testing.T) {
	dir, err := moduleData()
	if err != nil {
		t.Skip(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("GoMNIST's data is not in the module cache: %v", err)
	}
	tr, te, err := loadMNIST(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		d     *digits
		count []int
	}{
		{"training", tr, []int{5923, 6742, 5958, 6131, 5842, 5421, 5918, 6265, 5851, 5949}},
		{"test", te, []int{980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009}},
	} {
		got := make([]int, 10)
		for _, g := range c.d.Digit {
			got[g]++
		}
		if !slices.Equal(got, c.count) || c.d.Cols != 784 || len(c.d.X) != c.d.Rows*784 {
			t.Errorf("%s file: digits %v, %d pixels of %d rows; want %v of 784 pixels", c.name, got, len(c.d.X), c.d.Rows, c.count)
		}
		if lo, hi := slices.Min(c.d.X), slices.Max(c.d.X); lo != 0 || hi != 1 {
			t.Errorf("%s file: pixels in [%v, %v], want [0, 1]", c.name, lo, hi)
		}
	}
	p := paperProtocol()
	if n := p.pretraining(tr).Rows; n != 5923+6742+5958+6131+5842 {
		t.Errorf("%d pretraining rows, want those of digits 0–4", n)
	}
	trd, val, ted, err := p.downstream(tr, te, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name       string
		rows, pos  int
		rowsGot, y int
	}{
		{"training", 4000, 80, trd.Rows, trd.Positives()},
		{"validation", 2000, 40, val.Rows, val.Positives()},
		{"test", 4861, 1009, ted.Rows, ted.Positives()},
	} {
		if c.rowsGot != c.rows || c.y != c.pos {
			t.Errorf("%s part: %d rows, %d positives; want %d and %d", c.name, c.rowsGot, c.y, c.rows, c.pos)
		}
	}
	seen := map[string]bool{}
	for i := range trd.Rows {
		seen[string(float32Bytes(trd.X32[i*784:(i+1)*784]))] = true
	}
	dup := 0
	for i := range val.Rows {
		if seen[string(float32Bytes(val.X32[i*784:(i+1)*784]))] {
			dup++
		}
	}
	if dup > 0 {
		t.Errorf("%d validation images are training images too", dup)
	}
}

func float32Bytes(x []float32) []byte {
	b := make([]byte, 0, 4*len(x))
	for _, v := range x {
		b = append(b, byte(v*255))
	}
	return b
}

// synthetic returns a stand-in for MNIST: images of 16 pixels, each a noisy copy of its
// digit's random prototype, n of them per digit.
func synthetic(seed uint64, n int) *digits {
	rng := rand.New(rand.NewPCG(seed, 7))
	proto := rand.New(rand.NewPCG(99, 7)) // the same prototypes in every file
	const cols = 16
	protos := make([][]float32, 10)
	for g := range protos {
		for range cols {
			protos[g] = append(protos[g], proto.Float32())
		}
	}
	d := &digits{Rows: 10 * n, Cols: cols}
	for i := range d.Rows {
		g := i % 10
		d.Digit = append(d.Digit, g)
		for j := range cols {
			d.X = append(d.X, min(1, max(0, protos[g][j]+0.35*float32(rng.NormFloat64()))))
		}
	}
	return d
}

// smallProtocol is the paper's protocol at the stand-in's scale.
func smallProtocol() protocol {
	p := paperProtocol()
	p.Hidden = []int{8, 4}
	p.PretrainEpochs, p.PretrainBatch, p.PretrainRate = 3, 32, 1e-2
	p.TrainPos, p.TrainNeg, p.ValPos, p.ValNeg = 16, 160, 10, 100
	p.Warmup, p.Epochs, p.Batch, p.MinPos = 1, 3, 32, 4
	p.Rank, p.Alpha = 2, 0.1
	return p
}

// TestProtocolOnStandIn runs the whole protocol on the stand-in, two seeds: nine arm × loss
// entries in order, with the trainable parameters of each arm (random: every parameter of
// 16 → 8 → 4 → 1; frozen: the head's 4 + 1; lora: rank-2 adapters on both body layers,
// 2·(16 + 8) + 2·(8 + 4), and the head), figures in range, sd and paired intervals over the
// seeds, the warm-up gains of each arm and their differences from the random arm's; and the
// same figures when run again.
func TestProtocolOnStandIn(t *testing.T) {
	tr, te := synthetic(1, 100), synthetic(2, 30)
	p := smallProtocol()
	rep, err := p.run(context.Background(), tr, te, 2, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"random": 16*8 + 8 + 8*4 + 4 + 4 + 1, "frozen": 4 + 1, "lora": 2*(16+8) + 2*(8+4) + 4 + 1}
	if len(rep.Arms) != 9 {
		t.Fatalf("%d arm entries, want 9", len(rep.Arms))
	}
	for k, a := range rep.Arms {
		arm, loss := p.Arms[k/3], p.Losses[k%3]
		if a.Arm != arm || a.Loss != loss || a.TrainableParams != want[arm] || a.Seeds != 2 {
			t.Errorf("entry %d: %s %s, %d trainable, %d seeds; want %s %s, %d, 2", k, a.Arm, a.Loss, a.TrainableParams, a.Seeds, arm, loss, want[arm])
		}
		if !(a.TestAUC > 0.5 && a.TestAUC <= 1) || !(a.TestTPR >= 0 && a.TestTPR <= 1) || a.SD == nil || len(a.PerSeed) != 2 {
			t.Errorf("%s %s: test AUC %v, TPR %v, sd %v, %d seeds", a.Arm, a.Loss, a.TestAUC, a.TestTPR, a.SD, len(a.PerSeed))
		}
		if (k%3 == 0) != (a.PairedVsFirst == nil) {
			t.Errorf("%s %s: paired_vs_first %v", a.Arm, a.Loss, a.PairedVsFirst)
		}
		if wu := a.PerSeed[0].WarmupEpochs; (loss == "sqhinge+wu") != (wu == 1) {
			t.Errorf("%s %s: %d warm-up epochs", a.Arm, a.Loss, wu)
		}
	}
	if len(rep.WarmupGain) != 3 || len(rep.WarmupGainVsRandom) != 2 {
		t.Fatalf("%d warm-up gains and %d differences, want 3 and 2", len(rep.WarmupGain), len(rep.WarmupGainVsRandom))
	}
	for _, g := range append(rep.WarmupGain, rep.WarmupGainVsRandom...) {
		if g.TestAUC == nil || g.TestTPR == nil || !(g.TestAUC.CI95[0] <= g.TestAUC.Diff && g.TestAUC.Diff <= g.TestAUC.CI95[1]) {
			t.Errorf("%s %s: gain %v, %v", g.Arm, g.Loss, g.TestAUC, g.TestTPR)
		}
	}
	again, err := p.run(context.Background(), tr, te, 2, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	for k := range rep.Arms {
		a, b := rep.Arms[k], again.Arms[k]
		if a.TestAUC != b.TestAUC || a.TestTPR != b.TestTPR || a.LearningRate != b.LearningRate || a.BestEpoch != b.BestEpoch {
			t.Errorf("%s %s: a second run gave other figures", a.Arm, a.Loss)
		}
	}
	var buf bytes.Buffer
	if err := rep.table(&buf, p.Alpha); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "lora    sqhinge+wu") || !strings.Contains(buf.String(), "warm-up gain minus the random arm's") {
		t.Errorf("table:\n%s", buf.String())
	}
	if err := json.NewEncoder(io.Discard).Encode(rep); err != nil {
		t.Fatal(err)
	}
}

// TestPretrainedArmsKeepTheBody: the models the pretrained arms keep hold the pretrained
// body bit for bit (frozen: its weights and biases; lora: the same, under trained adapters)
// and a trained head; the random arm's model shares nothing with it.
func TestPretrainedArmsKeepTheBody(t *testing.T) {
	tr, te := synthetic(1, 100), synthetic(2, 30)
	p := smallProtocol()
	pre, err := p.pretrain(context.Background(), p.pretraining(tr), 1)
	if err != nil {
		t.Fatal(err)
	}
	trd, val, ted, err := p.downstream(tr, te, 1)
	if err != nil {
		t.Fatal(err)
	}
	body := map[string][]float32{}
	for _, q := range pre.Params() {
		if strings.HasPrefix(q.Name, "layer0.") || strings.HasPrefix(q.Name, "layer1.") {
			body[q.Name] = slices.Clone(q.Value.Float32s())
		}
	}
	sp := &experiment.Split{Seed: 1, Train: trd, Val: val, Test: ted}
	for _, arm := range []string{"random", "frozen", "lora"} {
		start, err := p.newModel(arm, trd.Cols, pre, 1)
		if err != nil {
			t.Fatal(err)
		}
		c, err := p.runCell(context.Background(), sp, arm, "sqhinge", pre)
		if err != nil {
			t.Fatal(err)
		}
		initial := map[string][]float32{}
		for _, q := range start.Params() {
			initial[q.Name] = q.Value.Float32s()
		}
		for _, q := range c.Model.Params() {
			v := q.Value.Float32s()
			switch want, inBody := body[q.Name]; {
			case inBody && arm != "random":
				if !slices.Equal(v, want) || !q.Frozen {
					t.Errorf("%s: %s (frozen %v) is not the pretrained body's", arm, q.Name, q.Frozen)
				}
			case slices.Equal(v, initial[q.Name]):
				t.Errorf("%s: %s did not train", arm, q.Name)
			}
		}
	}
}
