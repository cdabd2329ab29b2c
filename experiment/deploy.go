package experiment

import "github.com/rocops/rocops/deploy"

// OperatingPoint is what deploy.Save records of r: its deployed threshold (+Inf, which flags
// nothing, when no threshold kept validation FPR ≤ α), its validation and test rates, how it
// was trained, and label, the training data's label column. For a result on data of classes
// (Classes set) it records the classes or labels, the per-class thresholds chosen on
// validation one-vs-rest (+Inf for a class none kept at validation FPR ≤ α), their per-class
// rates with their macro means, and whether the scores are softmax probabilities; a
// multi-label model records no label, its label columns being its classes.
func (r *Result) OperatingPoint(label string) deploy.OperatingPoint {
	op := deploy.OperatingPoint{
		Alpha: r.Alpha, Threshold: r.threshold(), ValFPR: r.ValFPR, ValTPR: r.ValTPR,
		TestFPR: r.DeployedTestFPR, TestTPR: r.DeployedTestTPR, Label: label,
		Run: deploy.Run{Loss: r.Loss, WarmupEpochs: r.WarmupEpochs, Seed: r.Seed, LearningRate: r.LearningRate},
	}
	if m := r.Classes; m != nil {
		op.Classes, op.Multilabel, op.Probabilities = m.Names, m.Multilabel, m.Probabilities
		if m.Multilabel {
			op.Label = ""
		}
		op.Thresholds = m.perClass(func(f *ClassFigures) float64 { return f.Threshold })
		op.ClassValFPR = m.perClass(func(f *ClassFigures) float64 { return f.ValFPR })
		op.ClassValTPR = m.perClass(func(f *ClassFigures) float64 { return f.ValTPR })
		op.ClassTestFPR = m.perClass(func(f *ClassFigures) float64 { return f.TestFPR })
		op.ClassTestTPR = m.perClass(func(f *ClassFigures) float64 { return f.TestTPR })
	}
	return op
}
