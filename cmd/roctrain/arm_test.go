package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rocops/rocops/deploy"
	"github.com/rocops/rocops/experiment"
	"github.com/rocops/rocops/nn"
)

// initBase trains the model the -init tests start from: an MLP 3→8→1 of ce on writeCSV's 400
// rows, saved with -out; it returns the CSV, the model's path (<run>.params) and the model.
func initBase(t *testing.T) (csvPath, model string, saved *deploy.Scorer) {
	t.Helper()
	dir := t.TempDir()
	csvPath = writeCSV(t, dir, 400)
	code, _, stderr := roctrain(t, "-data", csvPath, "-label", "y", "-out", filepath.Join(dir, "base"), "-plot", "",
		"-losses", "ce", "-hidden", "8", "-epochs", "3", "-lr", "0.01", "-boot", "0")
	require.Equal(t, 0, code, stderr)
	model = filepath.Join(dir, "base", "ce.params")
	s, err := deploy.Load(model)
	require.NoError(t, err)
	t.Cleanup(s.Close)
	return csvPath, model, s
}

// params returns the values of a model's parameters by name, as float64.
func paramValues(t *testing.T, m nn.Model) map[string][]float64 {
	t.Helper()
	out := map[string][]float64{}
	for _, p := range m.Params() {
		out[p.Name] = append([]float64(nil), p.Value.Data().([]float64)...)
	}
	return out
}

// fileSHA256 is the hex SHA-256 of the file at path.
func fileSHA256(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// -init with a model whose features differ from the data's is an error before training that
// says which differ, the first few, and how many.
func TestInitFeaturesDiffer(t *testing.T) {
	csvPath, model, _ := initBase(t)
	b, err := os.ReadFile(csvPath)
	require.NoError(t, err)
	dir := t.TempDir()
	for _, tc := range []struct {
		name, header string
		want         []string
	}{
		{"renamed", "a,y,b,d", []string{`the model takes 3, the data has 3, and 1 of them differ`, `feature 3 is "c" in the model, "d" in the data`}},
		{"reordered", "b,y,a,c", []string{`2 of them differ`, `feature 1 is "a" in the model, "b" in the data`, `feature 2 is "b" in the model, "a" in the data`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".csv")
			rows := tc.header + string(b[strings.IndexByte(string(b), '\n'):])
			require.NoError(t, os.WriteFile(path, []byte(rows), 0o644))
			code, stdout, stderr := roctrain(t, "-data", path, "-label", "y", "-init", model, "-plot", "", "-losses", "ce", "-epochs", "1", "-boot", "0")
			require.Equal(t, 1, code, stderr)
			require.Empty(t, stdout)
			require.Contains(t, stderr, "roctrain: -init "+model+": the model's features are not the data's: ")
			for _, w := range tc.want {
				require.Contains(t, stderr, w)
			}
			require.NotContains(t, stderr, "training", "the error comes before any training")
		})
	}
	t.Run("an extra column", func(t *testing.T) {
		path := filepath.Join(dir, "extra.csv")
		var sb strings.Builder
		for k, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if k == 0 {
				sb.WriteString(line + ",e\n")
			} else {
				sb.WriteString(line + ",1\n")
			}
		}
		require.NoError(t, os.WriteFile(path, []byte(sb.String()), 0o644))
		code, _, stderr := roctrain(t, "-data", path, "-label", "y", "-init", model, "-plot", "", "-losses", "ce", "-epochs", "1", "-boot", "0")
		require.Equal(t, 1, code, stderr)
		require.Contains(t, stderr, `the model takes 3, the data has 4, and 1 of them differ (feature 4 is (none) in the model, "e" in the data)`)
	})
}

// -init with matching features starts every run from the saved weights: with a learning rate
// too small to move any weight, the model -out saves is the init model's file byte for byte,
// with the same validation figures, and its sidecar records the init model's SHA-256.
func TestInitStartsFromTheSavedModel(t *testing.T) {
	csvPath, model, saved := initBase(t)
	out := filepath.Join(t.TempDir(), "m")
	code, stdout, stderr := roctrain(t, "-data", csvPath, "-label", "y", "-init", model, "-out", out, "-plot", "",
		"-losses", "ce", "-epochs", "1", "-lr", "1e-300", "-boot", "0")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "model: MLP 3→8→1 from "+model+", everything trained (41 of 41 parameters trained); α = 0.1")
	s, err := deploy.Load(filepath.Join(out, "ce.params"))
	require.NoError(t, err)
	defer s.Close()
	require.Equal(t, fileSHA256(t, saved.ModelPath()), fileSHA256(t, s.ModelPath()))
	got, want := s.OperatingPoint(), saved.OperatingPoint()
	require.Equal(t, want.ValFPR, got.ValFPR)
	require.Equal(t, want.ValTPR, got.ValTPR)
	require.Equal(t, want.Threshold, got.Threshold)
	require.Equal(t, fileSHA256(t, saved.ModelPath()), got.Run.InitSHA256)
	require.Empty(t, want.Run.InitSHA256)
}

// On another split (another -seed, another training part's standardisation) the initial model
// takes the split's standardised rows and scores them as the saved model scores the raw rows.
func TestInitRestandardises(t *testing.T) {
	csvPath, model, saved := initBase(t)
	o, err := parseFlags([]string{"-data", csvPath, "-label", "y", "-init", model, "-seed", "2"}, os.Stderr)
	require.NoError(t, err)
	ds, err := loadData(o)
	require.NoError(t, err)
	require.NoError(t, o.loadInit(ds.all))
	sp, err := experiment.NewSplit(ds.all, 2)
	require.NoError(t, err)
	require.NotEqual(t, saved.Standardizer().Mean, sp.Std.Mean, "the test needs another standardisation")
	m, err := o.model(sp, 1)
	require.NoError(t, err)
	val := sp.Val
	got, err := nn.Scores(m, val.X, val.Rows)
	require.NoError(t, err)
	raw := make([]float64, len(val.X))
	for i := range val.Rows {
		for j := range val.Cols {
			raw[i*val.Cols+j] = val.X[i*val.Cols+j]*sp.Std.Std[j] + sp.Std.Mean[j]
		}
	}
	want, err := saved.Score(raw, val.Rows)
	require.NoError(t, err)
	const tol = 1e-9 // rounding through the two standardisations
	for i := range want {
		require.InDelta(t, want[i], got[i], tol, "row %d", i)
	}
}

// -freeze body trains the last layer alone: the saved model's body holds the init model's
// bits, its last layer moved.
func TestFreezeBodyKeepsTheBody(t *testing.T) {
	csvPath, model, saved := initBase(t)
	out := filepath.Join(t.TempDir(), "m")
	code, stdout, stderr := roctrain(t, "-data", csvPath, "-label", "y", "-init", model, "-freeze", "body", "-out", out,
		"-plot", "", "-losses", "ce,sqhinge", "-epochs", "3", "-lr", "0.01", "-boot", "0")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "model: MLP 3→8→1 from "+model+", body frozen (9 of 41 parameters trained)")
	before := paramValues(t, saved.Model())
	for _, run := range []string{"ce", "sqhinge"} {
		s, err := deploy.Load(filepath.Join(out, run+".params"))
		require.NoError(t, err)
		after := paramValues(t, s.Model())
		s.Close()
		for _, name := range []string{"layer0.weight", "layer0.bias"} {
			for k := range before[name] {
				require.Equal(t, math.Float64bits(before[name][k]), math.Float64bits(after[name][k]), "%s %s[%d]", run, name, k)
			}
		}
		require.NotEqual(t, before["layer1.weight"], after["layer1.weight"], run)
	}
}

// trainable_params counts the parameters each arm trains, and the model line names the arm.
func TestTrainableParams(t *testing.T) {
	csvPath, model, _ := initBase(t)
	// MLP 3→8→1: 3·8 + 8 + 8 + 1 = 41 parameters, the last layer's 9; rank-2 adapters on the
	// hidden layer add 2·(3 + 8) = 22.
	for _, tc := range []struct {
		name             string
		args             []string
		trainable, total int
		line             string
	}{
		{"init", []string{"-init", model}, 41, 41, "MLP 3→8→1 from " + model + ", everything trained (41 of 41 parameters trained)"},
		{"init frozen", []string{"-init", model, "-freeze", "body"}, 9, 41, "MLP 3→8→1 from " + model + ", body frozen (9 of 41 parameters trained)"},
		{"init lora", []string{"-init", model, "-adapter", "lora:r=2"}, 31, 63,
			"MLP 3→8→1 from " + model + ", LoRA adapters of rank 2 on the hidden layers, their weights frozen (31 of 63 parameters trained)"},
		{"random frozen", []string{"-hidden", "8", "-freeze", "body"}, 9, 41, "MLP 3→8→1, random body frozen (9 of 41 parameters trained)"},
		{"random lora", []string{"-hidden", "8", "-adapter", "lora:r=2"}, 31, 63,
			"MLP 3→8→1, LoRA adapters of rank 2 on the hidden layers of random frozen weights (31 of 63 parameters trained)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"-data", csvPath, "-label", "y", "-plot", "", "-losses", "ce,sqhinge", "-epochs", "1", "-boot", "0"}, tc.args...)
			code, stdout, stderr := roctrain(t, append(args, "-json")...)
			require.Equal(t, 0, code, stderr)
			var got struct {
				Init *struct {
					Model, SHA256, Head string
				} `json:"init"`
				Results []struct {
					Loss            string `json:"loss"`
					TrainableParams *int   `json:"trainable_params"`
				} `json:"results"`
			}
			require.NoError(t, json.Unmarshal([]byte(stdout), &got), stdout)
			require.Len(t, got.Results, 2)
			for _, r := range got.Results {
				require.NotNil(t, r.TrainableParams, r.Loss)
				require.Equal(t, tc.trainable, *r.TrainableParams, r.Loss)
			}
			if tc.args[0] == "-init" {
				require.NotNil(t, got.Init)
				require.Equal(t, model, got.Init.Model)
				require.Equal(t, "kept", got.Init.Head)
				require.Len(t, got.Init.SHA256, 64)
			} else {
				require.Nil(t, got.Init)
			}
			code, stdout, stderr = roctrain(t, args...)
			require.Equal(t, 0, code, stderr)
			require.Contains(t, stdout, "model: "+tc.line+"; α = 0.1")
		})
	}
	// Without the flags, no trainable_params and no init.
	code, stdout, stderr := roctrain(t, "-data", csvPath, "-label", "y", "-plot", "", "-losses", "ce", "-epochs", "1", "-boot", "0", "-json")
	require.Equal(t, 0, code, stderr)
	require.NotContains(t, stdout, "trainable_params")
	require.NotContains(t, stdout, `"init"`)
}

// A binary model under multi-class data keeps its body under a new output layer of the
// classes' width, trained.
func TestInitNewHead(t *testing.T) {
	csvPath, model, saved := initBase(t)
	b, err := os.ReadFile(csvPath)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	for k := 1; k < len(lines); k++ { // y ∈ {0, 1} becomes three classes by the row
		f := strings.Split(lines[k], ",")
		f[1] = []string{"p", "q", "r"}[k%3]
		lines[k] = strings.Join(f, ",")
	}
	path := filepath.Join(t.TempDir(), "classes.csv")
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644))
	out := filepath.Join(t.TempDir(), "m")
	code, stdout, stderr := roctrain(t, "-data", path, "-label", "y", "-init", model, "-freeze", "body", "-out", out,
		"-plot", "", "-losses", "ce", "-epochs", "2", "-boot", "0")
	require.Equal(t, 0, code, stderr)
	// 3·8 + 8 in the body, 8·3 + 3 in the new layer
	require.Contains(t, stdout, "model: MLP 3→8→3 from "+model+"'s body under a new output layer, body frozen (27 of 59 parameters trained)")
	s, err := deploy.Load(filepath.Join(out, "ce.params"))
	require.NoError(t, err)
	defer s.Close()
	require.Equal(t, 3, max(1, len(s.OperatingPoint().Classes)))
	// The classes' stratified split standardises otherwise than the binary one: the frozen body
	// is the saved one taking the new standardisation (restandardized), W'ᵢⱼ = Wᵢⱼ·sᵢ/s₀ᵢ.
	before, after := paramValues(t, saved.Model()), paramValues(t, s.Model())
	s0, s1 := saved.Standardizer().Std, s.Standardizer().Std
	require.NotEqual(t, s0, s1)
	const h = 8
	for i := range 3 {
		for j := range h {
			require.Equal(t, before["layer0.weight"][i*h+j]*(s1[i]/s0[i]), after["layer0.weight"][i*h+j], "W[%d][%d]", i, j)
		}
	}
}

// -adapter trains LoRA adapters; -out saves them merged into a plain MLP, which -predict
// scores, and whose body moved.
func TestAdapterOutThenPredict(t *testing.T) {
	csvPath, model, saved := initBase(t)
	out := filepath.Join(t.TempDir(), "m")
	code, _, stderr := roctrain(t, "-data", csvPath, "-label", "y", "-init", model, "-adapter", "lora:r=2", "-out", out,
		"-plot", "", "-losses", "ce", "-epochs", "3", "-lr", "0.01", "-boot", "0")
	require.Equal(t, 0, code, stderr)
	s, err := deploy.Load(filepath.Join(out, "ce.params"))
	require.NoError(t, err)
	require.Equal(t, "MLP(in=3, hidden=[8], activation=relu)", s.Spec().Architecture)
	require.NotEqual(t, paramValues(t, saved.Model())["layer0.weight"], paramValues(t, s.Model())["layer0.weight"],
		"the adapters, merged, move the body's weights")
	s.Close()
	code, stdout, stderr := roctrain(t, "-predict", filepath.Join(out, "ce.params"), "-data", csvPath)
	require.Equal(t, 0, code, stderr)
	require.Len(t, strings.Split(strings.TrimSpace(stdout), "\n"), 401)
	require.Contains(t, stderr, "roctrain: flagged ")
}

// The flags' bad values and combinations are named errors before any data is read.
func TestArmFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-freeze", "head"}, `-freeze must be body (train the last layer alone), got "head"`},
		{[]string{"-adapter", "dora:r=2"}, `-adapter: unknown adapter "dora" (want lora:r=R, LoRA adapters of rank R)`},
		{[]string{"-adapter", "lora"}, "-adapter lora: want lora:r=R, R the adapters' rank"},
		{[]string{"-adapter", "lora:r=x"}, "-adapter lora:r=x: want lora:r=R, R the adapters' rank"},
		{[]string{"-adapter", "lora:r=0"}, "-adapter lora:r=0: the rank r must be in 1…4096, got 0"},
		{[]string{"-adapter", "lora:r=-1"}, "-adapter lora:r=-1: the rank r must be in 1…4096, got -1"},
		{[]string{"-freeze", "body", "-adapter", "lora:r=2"}, "-freeze body and -adapter go separately"},
		{[]string{"-init", "m.params", "-hidden", "8"}, "-hidden does not apply with -init"},
		{[]string{"-freeze", "body", "-hidden", ""}, "-freeze body needs a hidden layer (-hidden)"},
		{[]string{"-adapter", "lora:r=2", "-hidden", ""}, "-adapter needs a hidden layer (-hidden)"},
	} {
		code, _, stderr := roctrain(t, tc.args...)
		require.Equal(t, 2, code, "%v: %s", tc.args, stderr)
		require.Contains(t, stderr, "roctrain: "+tc.want, tc.args)
	}
	// A missing -init model: named, before training.
	code, _, stderr := roctrain(t, "-init", filepath.Join(t.TempDir(), "none.params"), "-plot", "", "-epochs", "1")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "roctrain: -init ")
	require.NotContains(t, stderr, "training")
}

// thousands groups digits by three.
func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 65: "65", 999: "999", 1000: "1,000", 2049: "2,049", 233985: "233,985", 1234567: "1,234,567"} {
		require.Equal(t, want, thousands(n))
	}
}
