package train_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"strings"

	"github.com/rocops/rocops"
	"github.com/rocops/rocops/data"
	"github.com/rocops/rocops/metrics"
	"github.com/rocops/rocops/nn"
	"github.com/rocops/rocops/ops/kdequantile"
	"github.com/rocops/rocops/train"
)

// Train an MLP on the embedded WDBC data for the true-positive rate at a 10% false-positive
// rate, after a short cross-entropy warm-up, and measure it on held-out data.
func Example() {
	ds, err := data.WDBC()
	if err != nil {
		log.Fatal(err)
	}
	tr, val, test, err := data.Split(ds, data.SplitConfig{Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	st, err := data.FitStandardizer(tr)
	if err != nil {
		log.Fatal(err)
	}
	tr, _ = st.Apply(tr)
	val, _ = st.Apply(val)
	test, _ = st.Apply(test)

	model, err := nn.NewMLP(nn.MLPConfig{In: tr.Cols, Hidden: []int{16}, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	recipe := train.WithWarmup(5, train.KDE{Config: kdequantile.Config{Alpha: 0.1}})
	hist, err := recipe.Fit(context.Background(), model, train.Config{
		Epochs:       20,
		BatchSize:    128,
		LearningRate: 0.01,
		Metric:       train.PartialAUC(0.1),
		Progress:     io.Discard,
	}, tr, val)
	if err != nil {
		log.Fatal(err)
	}
	scores, err := nn.Scores(model, test.X, test.Rows)
	if err != nil {
		log.Fatal(err)
	}
	tpr, err := metrics.TPRAtFPR(scores, test.Y, 0.1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("trained %d epochs, kept one of the %v phase\n", len(hist.Epochs), hist.Epochs[hist.Best].Stage)
	fmt.Printf("held-out TPR at FPR 0.1 above 0.9: %v\n", tpr > 0.9)
	// Output:
	// trained 25 epochs, kept one of the main phase
	// held-out TPR at FPR 0.1 above 0.9: true
}

// The KDE recipe: cross-entropy to its best validation epoch, then the KDE loss from there at
// a tenth of the learning rate, kept only when it improves the validation metric. The History
// says which phase the model's weights come from.
func ExampleKDERecipe() {
	ds, err := data.WDBC()
	if err != nil {
		log.Fatal(err)
	}
	tr, val, _, err := data.Split(ds, data.SplitConfig{Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	st, err := data.FitStandardizer(tr)
	if err != nil {
		log.Fatal(err)
	}
	tr, _ = st.Apply(tr)
	val, _ = st.Apply(val)

	model, err := nn.NewMLP(nn.MLPConfig{In: tr.Cols, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	recipe := train.KDERecipe(kdequantile.Config{Alpha: 0.1})
	hist, err := recipe.Fit(context.Background(), model, train.Config{
		Epochs:       10,
		BatchSize:    128,
		LearningRate: 0.01,
		Metric:       train.PartialAUC(0.1),
		Progress:     io.Discard,
	}, tr, val)
	if err != nil {
		log.Fatal(err)
	}
	best := hist.Epochs[hist.Best]
	fmt.Println(recipe)
	fmt.Printf("%d epochs; kept epoch %d (%v phase), validation pAUC@0.1 %.3f\n", len(hist.Epochs), best.Index, best.Stage, best.Metric)
	// Output:
	// ce→kde(alpha=0.1, v0=0, v1=0) at lr×0.1
	// 20 epochs; kept epoch 20 (main phase), validation pAUC@0.1 0.892
}

// Names.Parse reads the recipe names of cmd/roctrain's -losses, options included; "ce+kde"
// stands for one candidate per weight λ, among which validation chooses, and "+wu" gives a
// plain loss Names.Warmup epochs of cross-entropy first.
func ExampleNames_Parse() {
	names := train.Names{Point: train.Point{Alpha: 0.05}, Warmup: 3}
	for _, name := range []string{"kde", "kde:pool=1024", "kde:lr=0.3:batch=1024", "kde-plain:anneal", "ce+kde", "sqhinge+wu"} {
		recipes, _, err := names.Parse(name)
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, r := range recipes {
			fmt.Printf("%-22s %v\n", name, r)
		}
	}
	_, _, err := names.Parse("kde:pool=0")
	fmt.Println(errors.Is(err, rocops.ErrConfig), err)
	// Output:
	// kde                    ce→kde(alpha=0.05, v0=0, v1=0) at lr×0.1
	// kde:pool=1024          ce→kde(alpha=0.05, v0=0, v1=0) at lr×0.1, 1024 pooled negatives
	// kde:lr=0.3:batch=1024  ce→kde(alpha=0.05, v0=0, v1=0) at lr×0.3, batch 1024
	// kde-plain:anneal       kde(alpha=0.05, v0=0, v1=0, widen=4) for 6 epochs→kde(alpha=0.05, v0=0, v1=0, widen=2) for 6 epochs→kde(alpha=0.05, v0=0, v1=0) for 6 epochs
	// ce+kde                 1×ce + 0.1×kde(alpha=0.05, v0=0, v1=0)
	// ce+kde                 1×ce + 0.3×kde(alpha=0.05, v0=0, v1=0)
	// ce+kde                 1×ce + 1×kde(alpha=0.05, v0=0, v1=0)
	// ce+kde                 1×ce + 3×kde(alpha=0.05, v0=0, v1=0)
	// sqhinge+wu             ce(3 epochs)→sqhinge(margin=1, pairs=all)
	// true train: invalid setting: recipe "kde": option "pool=0": want at least 1 negative
}

// Recipes is the registry of the names Names.Parse reads, each with the options it takes.
func ExampleRecipes() {
	for _, r := range train.Recipes() {
		usages := make([]string, len(r.Options))
		for k, o := range r.Options {
			usages[k] = o.Usage()
		}
		fmt.Println(strings.TrimSpace(r.Name + " " + strings.Join(usages, " ")))
	}
	// Output:
	// ce
	// kde tail widen=w pool=n lr=s batch=n pos=p
	// kde-plain tail widen=w pool=n anneal
	// ce+kde tail widen=w pool=n w=λ
	// logistic maxfpr=β mintpr=γ ovo
	// exp maxfpr=β mintpr=γ ovo
	// square maxfpr=β mintpr=γ ovo
	// hinge maxfpr=β mintpr=γ ovo
	// sqhinge maxfpr=β mintpr=γ ovo
	// aucm lr=η margin=m
	// pauc mintpr=γ
}
